// The files of a new capability. Kept as small as a working capability can be: one tool, tested end to
// end, so the shape to copy is all there and nothing needs deleting.

/** Files of `capabilities/<id>/` (and its changeset under `.changeset/`) by relative path. */
export function capabilityTemplate(id: string): Record<string, string> {
  const pkg = `@selu-catalogue/${id}`;
  const start = "node --max-semi-space-size=1 --max-old-space-size=48 dist/bundle/main.js";
  return {
    "package.json": `${JSON.stringify(
      {
        name: pkg,
        version: "0.1.0",
        private: true,
        description: `${id}: say what it does in one line (the marketplace shows it).`,
        type: "module",
        scripts: {
          build: "tsc -p tsconfig.build.json && node ../../scripts/bundle-entry.mjs",
          typecheck: "tsc -p tsconfig.json --noEmit",
          start,
          test: "vitest run",
          "manifest:write": "selu-manifest write .",
          "manifest:check": "selu-manifest check .",
        },
        dependencies: { "@selu-catalogue/kit": "workspace:*", zod: "catalog:" },
        devDependencies: {
          "@selu-catalogue/manifest": "workspace:*",
          "@selu-catalogue/testkit": "workspace:*",
          "@selu-catalogue/tsconfig": "workspace:*",
          "@types/node": "catalog:",
          typescript: "catalog:",
          vitest: "catalog:",
        },
      },
      null,
      2,
    )}\n`,
    "tsconfig.json": `{
  "extends": "@selu-catalogue/tsconfig/base.json",
  "compilerOptions": { "noEmit": true },
  "include": ["src", "test"]
}
`,
    "tsconfig.build.json": `{
  "extends": "@selu-catalogue/tsconfig/base.json",
  "compilerOptions": { "rootDir": "src", "outDir": "dist" },
  "include": ["src"],
  "exclude": ["src/**/*.test.ts"]
}
`,
    "vitest.config.ts": `import { catalogueTests } from "@selu-catalogue/tsconfig/vitest.js";

export default catalogueTests();
`,
    "manifest.yaml": `# yaml-language-server: $schema=../../registry/manifest.schema.json
# The manifest Selu reads. tools and credentials are generated from src/capability.ts:
# run \`./dev --filter ${pkg} manifest:write\` after changing them.
id: ${id}
class: tool
image: ghcr.io/selu-catalogue/selu-cap-${id}:0.1.0
network:
  mode: none
filesystem: none
resources:
  max_memory_mb: 128
sharing:
  mode: shared
  max_concurrent: 8
credentials: []
tools: []
`,
    Dockerfile: `# syntax=docker/dockerfile:1
# Build context: the repository root (docker build -f capabilities/${id}/Dockerfile .).
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /src
RUN npm install -g pnpm@10.34.9
COPY . .
RUN pnpm install --frozen-lockfile \\
 && pnpm --filter "${pkg}..." build \\
 && pnpm --filter ${pkg} deploy --legacy --prod /out

FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production PORT=50051 MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build --chown=1000:1000 /out /app
USER 1000:1000
EXPOSE 50051
CMD ${JSON.stringify(start.split(" "))}
`,
    "src/capability.ts": `import { defineCapability, tool } from "@selu-catalogue/kit";
import { z } from "zod";

/** The ${id} capability. Each tool's zod schema is the one source of its manifest entry and validation. */
export default defineCapability({
  id: "${id}",
  tools: {
    say_hello: tool({
      description: "Greets someone by name. Replace this tool with the capability's first real one.",
      input: z.object({ name: z.string().min(1).max(100).describe("Who to greet") }),
      policy: "allow",
      run: ({ name }) => ({ greeting: \`Hello, \${name}!\` }),
    }),
  },
});
`,
    "src/main.ts": `// Production entrypoint (the Dockerfile's CMD and the package's start script).
import { serve } from "@selu-catalogue/kit";
import capability from "./capability.js";

await serve(capability);
`,
    [`test/${id}.test.ts`]: `import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadManifest } from "@selu-catalogue/manifest";
import { type CapabilityProcess, Orchestrator, startCapabilityProcess } from "@selu-catalogue/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Calls the production entrypoint (the start script, as the Dockerfile runs it) the way Selu does.
const dir = fileURLToPath(new URL("..", import.meta.url));
const manifest = loadManifest(join(dir, "manifest.yaml")).manifest!;
const orchestrator = new Orchestrator();
let capability: CapabilityProcess;

beforeAll(async () => {
  capability = await startCapabilityProcess(dir);
  await orchestrator.install(manifest, capability.address);
});
afterAll(async () => {
  await orchestrator.close();
  await capability.stop();
});

describe(\`\${manifest.id} capability\`, () => {
  it("greets by name", async () => {
    expect(await orchestrator.call(\`\${manifest.id}__say_hello\`, { name: "Ada" })).toMatchObject({ ok: true, result: { greeting: "Hello, Ada!" } });
  });

  it("names the field when the name is empty", async () => {
    const outcome = await orchestrator.call(\`\${manifest.id}__say_hello\`, { name: "" });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).toMatch(/name/);
  });
});
`,
    "test/conformance.test.ts": `import { fileURLToPath } from "node:url";
import { conformance } from "@selu-catalogue/testkit/conformance";

conformance({ dir: fileURLToPath(new URL("..", import.meta.url)) });
`,
    "prompt.md": `Use \`say_hello\` to greet someone by name.
`,
    "prompt.de.md": `Nutze \`say_hello\`, um jemanden mit Namen zu begrüßen.
`,
    "agent/de.yaml": `# The German strings of this capability's agent (i18n/de.yaml and the marketplace are built from them).
# Keys are the capability's own names: tools, their input fields, credentials. What is missing falls
# back to English; \`./dev registry:check\` lists what a translation still lacks.
agent:
  name: ${id}
  description: "${id}: in einer Zeile sagen, was es tut (der Marktplatz zeigt es)."
tools:
  say_hello:
    display_name: Hallo sagen
    description: Begrüßt jemanden mit Namen.
    input:
      name: Wen begrüßen
`,
    "README.md": `# ${id}

Say in a sentence or two what this capability does and for whom.

## Tools

| tool | inputs | behaviour | side effects | policy |
|---|---|---|---|---|
| \`say_hello\` | \`name\` (1–100 chars) | returns \`{greeting}\` | none (read-only) | allow |

## Configuration

- Credentials: none.
- Network: none.
- Filesystem: none.
- Limits: 110 s per call, 128 MB memory; \`sharing: shared\` with up to 8 calls at once.

## Development

\`\`\`sh
./dev --filter ${pkg} test    # end-to-end and conformance tests
./dev --filter ${pkg} start   # serve on $PORT (default 50051)
\`\`\`
`,
    [`.changeset/${id}-capability.md`]: `---
"${pkg}": minor
---

New capability \`${id}\`.
`,
  };
}
