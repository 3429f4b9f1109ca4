// Production entrypoint (the Dockerfile's CMD and the package's start script).
import { serve } from "@selu-catalogue/kit";
import capability from "./capability.js";

await serve(capability);
