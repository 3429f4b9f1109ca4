import { fileURLToPath } from "node:url";
import { conformance } from "@selu-catalogue/testkit/conformance";

// Under Selu's container constraints with /workspace the only writable volume besides /tmp.
conformance({ dir: fileURLToPath(new URL("..", import.meta.url)), maxArtifactBytes: 16 * 1024 * 1024, workspace: true });
