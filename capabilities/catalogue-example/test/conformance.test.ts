import { fileURLToPath } from "node:url";
import { conformance } from "@selu-catalogue/testkit/conformance";

conformance({ dir: fileURLToPath(new URL("..", import.meta.url)) });
