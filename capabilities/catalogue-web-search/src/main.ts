// Production entrypoint (the Dockerfile's CMD and the package's start script).
import { serve } from "@selu-catalogue/kit";
import { proxyFromEnv } from "@selu-catalogue/kit/egress";
import { keepSourcesOneByte } from "@selu-catalogue/kit/one-byte-sources";
import { createWebSearch } from "./capability.js";

// pdf.js, left outside the bundle and loaded for the first PDF a page links to, has 3.5 MB of source
// that would otherwise take two bytes a character.
keepSourcesOneByte();

const proxy = proxyFromEnv(process.env);
await serve(createWebSearch({ proxy }), { egress: { proxy } });
