#!/usr/bin/env node
// A committed shim, so pnpm links the command on the first install, before dist/ is built.
await import("../dist/bin.js");
