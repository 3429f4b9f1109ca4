// Production entrypoint (the Dockerfile's CMD and the package's start script).
import { serve } from "@selu-catalogue/kit";
import { proxyFromEnv } from "@selu-catalogue/kit/egress";
import { createWebSearch } from "./capability.js";

const proxy = proxyFromEnv(process.env);
await serve(createWebSearch({ proxy }), { egress: { proxy } });
