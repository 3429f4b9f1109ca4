// Production entrypoint (the Dockerfile's CMD and the package's start script).
import { skipUnusedImports } from "./skip-unused-imports.js";

// Before anything imports pdfkit: a static import would resolve pdfkit's imports before this runs.
skipUnusedImports();
const [{ serve }, { default: capability }] = await Promise.all([import("@selu-catalogue/kit"), import("./capability.js")]);
await serve(capability);
