#!/usr/bin/env node
// A committed shim, so pnpm links the command on the first install, before dist/ is built (a bin that
// points into dist/ is skipped with a warning until a second install).
await import("../dist/bin.js");
