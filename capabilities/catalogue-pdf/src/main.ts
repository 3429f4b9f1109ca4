// Production entrypoint (the Dockerfile's CMD and the package's start script).
import { setFlagsFromString } from "node:v8";
import { keepSourcesOneByte } from "@selu-catalogue/kit/one-byte-sources";
import { skipUnusedImports } from "./skip-unused-imports.js";

// Before anything imports pdfkit: a static import would resolve pdfkit's imports before this runs.
skipUnusedImports();
keepSourcesOneByte();
const [{ serve }, { default: capability }] = await Promise.all([import("@selu-catalogue/kit"), import("./capability.js")]);
// No TurboFan: its first compile (at the warm-up) maps ~5 MiB of the node binary, and Maglev renders as
// fast (README, "Memory"). Set here, once the modules are loaded, not as `node --max-opt=2`: a V8 flag
// on the command line makes V8 refuse the code Node ships compiled for its own modules (~20 ms a start).
setFlagsFromString("--no-turbofan");
await serve(capability);
