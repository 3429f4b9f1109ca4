import { describe, expect, it } from "vitest";
import { checkDockerfile, imageEnv } from "./dockerfile.js";

const good = `# syntax=docker/dockerfile:1
FROM node:24.21.0-bookworm-slim AS build
RUN pnpm install \\
 && pnpm build
FROM node:24.21.0-bookworm-slim
LABEL org.opencontainers.image.source="https://example.org/x" \\
      org.opencontainers.image.version="1.2.3" org.opencontainers.image.description="d" org.opencontainers.image.licenses="MIT"
ENV NODE_ENV=production MALLOC_ARENA_MAX=2
RUN mkdir -p /workspace /cache && chown 1000:1000 /workspace /cache
COPY --from=build /out /app
USER 1000:1000
EXPOSE 50051
CMD ["node", "--max-old-space-size=64", "dist/main.js"]
`;
const start = "node --max-old-space-size=64 dist/main.js";

describe("checkDockerfile", () => {
  it("accepts a multi-stage, pinned, non-root image whose CMD is the start script", () => {
    expect(checkDockerfile(good, { startScript: start, workspace: true, cache: true })).toEqual([]);
  });

  it("wants a multi-stage build", () => {
    const single = good.replace(/FROM node:24.21.0-bookworm-slim AS build\n/, "");
    expect(checkDockerfile(single, { startScript: start })).toContain("Dockerfile: use a multi-stage build (a build stage, then a slim runtime stage)");
  });

  it.each(["node:24-slim", "node:latest", "node", "node:lts"])("refuses the unpinned base image %s", (image) => {
    const text = good.replace("FROM node:24.21.0-bookworm-slim\n", `FROM ${image}\n`);
    expect(checkDockerfile(text, { startScript: start }).join()).toContain(`got ${image}`);
  });

  it("accepts a digest-pinned base image", () => {
    const text = good.replace("FROM node:24.21.0-bookworm-slim\n", `FROM node@sha256:${"a".repeat(64)}\n`);
    expect(checkDockerfile(text, { startScript: start })).toEqual([]);
  });

  it("reads a base image given as an ARG's default, pinned or not", () => {
    const viaArg = (image: string) => `ARG NODE_IMAGE=${image}\n${good.replaceAll("FROM node:24.21.0-bookworm-slim", "FROM ${NODE_IMAGE}")}`;
    expect(checkDockerfile(viaArg("node:24.21.0-bookworm-slim"), { startScript: start })).toEqual([]);
    expect(checkDockerfile(viaArg("node:24-slim"), { startScript: start }).join()).toContain("got node:24-slim");
  });

  it("wants the app owned by root, not by the runtime user", () => {
    const text = good.replace("COPY --from=build /out /app", "COPY --from=build --chown=1000:1000 /out /app");
    expect(checkDockerfile(text, { startScript: start })).toEqual(["Dockerfile: copy the app owned by root (no --chown=1000 in the final stage), read-only to uid 1000"]);
  });

  it("wants the OCI labels source, version, description and licenses", () => {
    const text = good.replace(/LABEL[^\n]*\\\n[^\n]*\n/, "");
    expect(checkDockerfile(text, { startScript: start })).toEqual(
      ["source", "version", "description", "licenses"].map((k) => `Dockerfile: set LABEL org.opencontainers.image.${k} in the final stage`),
    );
  });

  it("wants USER 1000 in the final stage, not only in the build stage", () => {
    const text = good.replace("USER 1000:1000\n", "").replace("RUN pnpm install", "USER 1000\nRUN pnpm install");
    expect(checkDockerfile(text, { startScript: start })).toContain("Dockerfile: the final stage must set USER 1000:1000 (Selu runs as uid 1000)");
  });

  it("wants EXPOSE 50051", () => {
    expect(checkDockerfile(good.replace("EXPOSE 50051", "EXPOSE 8080"), { startScript: start })).toContain("Dockerfile: EXPOSE 50051 (the port Selu dials)");
  });

  it("catches a CMD that drifted from the start script", () => {
    expect(checkDockerfile(good, { startScript: "node dist/main.js" })[0]).toMatch(/differs from the start script/);
  });

  it("wants exec-form CMD so signals reach node", () => {
    const text = good.replace(/CMD .*/, "CMD node --max-old-space-size=64 dist/main.js");
    expect(checkDockerfile(text, { startScript: start })).toContain("Dockerfile: CMD must be in exec form (a JSON array) so SIGTERM reaches node");
  });

  it("wants /workspace owned by 1000 when the manifest uses it", () => {
    const text = good.replace(/RUN mkdir.*\n/, "");
    expect(checkDockerfile(text, { startScript: start, workspace: true })).toEqual(["Dockerfile: create /workspace owned by 1000:1000 in the final stage (the manifest uses it)"]);
  });

  it("wants MALLOC_ARENA_MAX set in the final stage, not only in the build stage", () => {
    const moved = good.replace("ENV NODE_ENV=production MALLOC_ARENA_MAX=2\n", "").replace("AS build\n", "AS build\nENV MALLOC_ARENA_MAX=2\n");
    expect(checkDockerfile(moved, { startScript: start, workspace: true, cache: true })).toEqual([expect.stringMatching(/^Dockerfile: set ENV MALLOC_ARENA_MAX=2 in the final stage/)]);
  });
});

describe("imageEnv", () => {
  it("reads the final stage's ENV in both forms, quoted values included", () => {
    const text = `FROM a:1.2.3 AS build\nENV SKIP=1\nFROM b:1.2.3\nENV A=1 B="two words" \\\n  C=3\nENV LEGACY some value\n`;
    expect(imageEnv(text)).toEqual({ A: "1", B: "two words", C: "3", LEGACY: "some value" });
  });
});
