import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// Issue 13: the generated Dockerfiles and the manifests' image tags follow the packages (one version
// everywhere, one Dockerfile shape). The scripts are plain ESM run by node, imported here by URL.
const root = new URL("../", import.meta.url);
const script = <T>(path: string) => import(new URL(path, root).href) as Promise<T>;
const { capabilityDirs, dockerfile } = await script<{ capabilityDirs(): string[]; dockerfile(dir: string): string }>("scripts/dockerfile.mjs");
const { tagProblems, writeTags } = await script<{ tagProblems(dirs: string[]): string[]; writeTags(dirs: string[]): void }>("scripts/version.mjs");
const { bundleEntry } = await script<{ bundleEntry(options: { entry: string; outDir: string }): Promise<void> }>("scripts/bundle-entry.mjs");
// A class of grpc-js's own (the stand-in for the contract's client classes has no such name).
const GRPC_JS = "ChannelCredentials";
const bundleText = (dir: string) =>
  readdirSync(join(dir, "dist/bundle"))
    .filter((f) => f.endsWith(".js"))
    .map((f) => readFileSync(join(dir, "dist/bundle", f), "utf8"))
    .join("\n");

const temp = mkdtempSync(join(tmpdir(), "catalogue-files-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("catalogue files", () => {
  it("finds every capability directory", () => {
    expect(capabilityDirs().map((d) => d.split("/").at(-1))).toEqual(
      expect.arrayContaining(["catalogue-email", "catalogue-example", "catalogue-pdf", "catalogue-web-search", "catalogue-file-manager"]),
    );
  });

  it("tags every manifest's image with its package's version", () => {
    expect(tagProblems(capabilityDirs())).toEqual([]);
  });

  it("has every Dockerfile as scripts/dockerfile.mjs writes it", () => {
    for (const dir of capabilityDirs()) expect(readFileSync(join(dir, "Dockerfile"), "utf8"), dir).toBe(dockerfile(dir));
  });

  it("gives every library package a licence, repository and engines", () => {
    const libraries = new URL("packages/", root);
    for (const name of readdirSync(libraries).filter((n) => existsSync(new URL(`${n}/package.json`, libraries)))) {
      const pkg = JSON.parse(readFileSync(new URL(`${name}/package.json`, libraries), "utf8"));
      expect(pkg, name).toMatchObject({ license: "MIT", repository: { directory: `packages/${name}` }, engines: { node: ">=24" } });
    }
  });

  it("leaves @grpc/grpc-js out of every capability's bundle: the kit serves gRPC itself, and the contract's client classes get a stand-in", () => {
    for (const dir of capabilityDirs()) expect(bundleText(dir).includes(GRPC_JS), dir).toBe(false);
  });

  it("still bundles grpc-js for code that imports it itself (the kit bench's bare grpc-js server)", async () => {
    const own = mkdtempSync(join(new URL(".", import.meta.url).pathname, ".bundle-"));
    try {
      writeFileSync(join(own, "main.mjs"), 'import { Server } from "@grpc/grpc-js";\nconsole.log(new Server());\n');
      await bundleEntry({ entry: join(own, "main.mjs"), outDir: join(own, "dist/bundle") });
      expect(bundleText(own)).toContain(GRPC_JS);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("names a manifest whose image tag lags its package version, and the version script fixes it", () => {
    writeFileSync(join(temp, "package.json"), JSON.stringify({ name: "@selu-catalogue/x", version: "1.3.0", description: "x", scripts: { start: "node dist/bundle/main.js" } }));
    writeFileSync(join(temp, "manifest.yaml"), "# kept\nid: x\nclass: tool\nimage: ghcr.io/owner/selu-cap-x:1.2.9\ntools: []\n");
    expect(tagProblems([temp])).toEqual([expect.stringContaining("image ghcr.io/owner/selu-cap-x:1.2.9 should be tagged 1.3.0")]);
    writeTags([temp]);
    expect(readFileSync(join(temp, "manifest.yaml"), "utf8")).toBe("# kept\nid: x\nclass: tool\nimage: ghcr.io/owner/selu-cap-x:1.3.0\ntools: []\n");
    expect(readFileSync(join(temp, "Dockerfile"), "utf8")).toContain('org.opencontainers.image.version="1.3.0"');
    expect(tagProblems([temp])).toEqual([]);
  });
});
