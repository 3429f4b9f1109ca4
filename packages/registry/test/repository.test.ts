import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type CapabilityDescription, writeManifestTools } from "@selu-catalogue/manifest";
import { describe, expect, it } from "vitest";
import { buildRegistry, REGISTRY_FILES } from "../src/build.js";
import { discoverCapabilities, loadCapabilitySource } from "../src/capability-source.js";
import { checkReadme } from "../src/readme-check.js";
import { REPO_ROOT } from "../src/test-fixtures.js";
import { SCHEMA_HEADER } from "./schema-header.js";

// The checks every capability in the repository passes; each failure says what to run or add.
const build = await buildRegistry(REPO_ROOT);
const dirs = discoverCapabilities(REPO_ROOT);

describe("the repository's registry", () => {
  it("finds every capability", () => {
    expect(build.agents.map((a) => a.source.dir)).toEqual(dirs);
    expect(dirs.length).toBeGreaterThan(0);
  });

  it.each(REGISTRY_FILES)("registry/%s is up to date (./dev registry:build regenerates it)", (name) => {
    expect(readFileSync(join(REPO_ROOT, "registry", name), "utf8")).toBe(build.registry[name]);
  });

  it("has German strings for every capability (agent/de.yaml and prompt.de.md)", () => {
    expect(build.germanProblems.join("\n")).toBe("");
  });

  it.each(dirs)("%s: manifest.yaml names its JSON Schema for editors on line 1", (dir) => {
    expect(readFileSync(join(dir, "manifest.yaml"), "utf8").split("\n")[0]).toBe(SCHEMA_HEADER);
  });

  it.each(dirs)("%s: README's tool table and memory limit match the code", async (dir) => {
    const source = await loadCapabilitySource(dir);
    expect(checkReadme(source.readme, source.manifest, source.tools)).toEqual([]);
  });

  it("keeps the schema header when selu-manifest write regenerates the tools", () => {
    const text = `${SCHEMA_HEADER}\nid: x\nclass: tool\nimage: ghcr.io/o/x:1\ntools: []\n`;
    const code: CapabilityDescription = {
      id: "x",
      credentials: [],
      tools: [{ name: "t", description: "d", input_schema: { type: "object", properties: {} }, recommended_policy: "allow", terminal_on_success: false }],
    };
    const written = writeManifestTools(text, code);
    expect(written).not.toBe(text);
    expect(written.split("\n")[0]).toBe(SCHEMA_HEADER);
  });
});
