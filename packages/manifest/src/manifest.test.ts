import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "./cli.js";
import { checkManifestAgainstCode } from "./compare.js";
import { parseManifest } from "./parse.js";
import { writeManifestTools } from "./write-tools.js";

const base = `id: demo
class: tool
image: ghcr.io/x/selu-cap-demo:1.0.0
tools:
  - name: do_it
    description: Does it
    input_schema: { type: object, properties: { a: { type: string } }, required: [a] }
`;
const code = {
  id: "demo",
  tools: [{ name: "do_it", description: "Does it", input_schema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] }, recommended_policy: "block" as const, terminal_on_success: false }],
  credentials: [],
};

describe("parseManifest", () => {
  it("applies Selu's defaults", () => {
    const { manifest, problems } = parseManifest(base);
    expect(problems).toEqual([]);
    expect(manifest).toMatchObject({ tool_source: "manifest", filesystem: "none", network: { mode: "none" }, resources: { max_memory_mb: 128, pids_limit: 64 }, sharing: { mode: "exclusive", max_concurrent: 1 } });
    expect(manifest!.tools[0]).toMatchObject({ recommended_policy: "block", terminal_on_success: false });
  });

  it("reports unknown keys, which Selu ignores silently, with a suggestion", () => {
    const { problems } = parseManifest(base.replace("    description: Does it", "    description: Does it\n    recommend_policy: allow") + "netwrk: {mode: any}\n");
    expect(problems).toEqual(expect.arrayContaining([
      { path: "tools[0].recommend_policy", message: "unknown key (Selu ignores it silently); did you mean recommended_policy?" },
      { path: "netwrk", message: "unknown key (Selu ignores it silently); did you mean network?" },
    ]));
  });

  it("requires class (the docs' default is wrong)", () => {
    expect(parseManifest(base.replace("class: tool\n", "")).problems.map((p) => p.path)).toContain("class");
  });

  it.each([
    ["id: demo", "id: my__cap", "id"],
    ["class: tool", "class: environment\nsharing: {mode: shared}", "sharing.mode"],
    ["class: tool", "class: tool\nfilesystem: workspace", "filesystem"],
    ["class: tool", "class: tool\ncache: {enabled: true}", "cache"],
    ["class: tool", "class: tool\nnetwork: {mode: allowlist, hosts: ['bad host']}", "network.hosts[0]"],
    ["class: tool", "class: tool\ntool_source: dynamic", "tools"],
  ])("refuses %s -> %s at %s", (from, to, path) => {
    expect(parseManifest(base.replace(from, to)).problems.map((p) => p.path)).toContain(path);
  });

  it("reports YAML syntax errors with a line", () => {
    const { manifest, problems } = parseManifest("id: [demo\nclass: tool\n");
    expect(manifest).toBeUndefined();
    expect(problems[0]!.message).toMatch(/^YAML: /);
  });
});

describe("manifest against code", () => {
  it("finds no difference when they agree", () => {
    expect(checkManifestAgainstCode(parseManifest(base).manifest!, code)).toEqual([]);
  });

  it("finds drift in both directions, with the path of a schema difference", () => {
    const drifted = { ...code, tools: [{ ...code.tools[0]!, input_schema: { ...code.tools[0]!.input_schema, required: [] }, recommended_policy: "ask" as const }, { ...code.tools[0]!, name: "other" }] };
    expect(checkManifestAgainstCode(parseManifest(base).manifest!, drifted)).toEqual([
      { path: "tools[0].recommended_policy", message: "is block, the code says ask" },
      { path: "tools[0].input_schema.required", message: "differs from the schema in the code" },
      { path: "tools", message: "missing tool other that the code defines" },
    ]);
  });

  it("writes the code's tools and keeps comments and other keys", () => {
    const text = "# my capability\n" + base + "resources: {max_memory_mb: 256}\n";
    const written = writeManifestTools(text, { ...code, credentials: [{ name: "KEY", scope: "user", required: true, description: "k" }] });
    expect(written).toContain("# my capability");
    const { manifest, problems } = parseManifest(written);
    expect(problems).toEqual([]);
    expect(manifest!.resources.max_memory_mb).toBe(256);
    expect(checkManifestAgainstCode(manifest!, { ...code, credentials: [{ name: "KEY", scope: "user", required: true, description: "k" }] })).toEqual([]);
  });
});

describe("selu-manifest CLI", () => {
  it("checks the example capability in the repository", async () => {
    const dir = fileURLToPath(new URL("../../../capabilities/example", import.meta.url));
    const lines: string[] = [];
    expect(await main(["check", dir], (l) => lines.push(l))).toBe(0);
    expect(lines).toEqual([`${dir}/manifest.yaml: OK`]);
  });

  it("fails on an unknown key and drift, one line per problem", async () => {
    const src = fileURLToPath(new URL("../../../capabilities/example", import.meta.url));
    const root = mkdtempSync(join(tmpdir(), "manifest-cli-"));
    const dir = join(root, "example");
    mkdirSync(dir);
    cpSync(join(src, "dist"), join(dir, "dist"), { recursive: true });
    symlinkSync(join(src, "node_modules"), join(dir, "node_modules"));
    writeFileSync(join(dir, "manifest.yaml"), readFileSync(join(src, "manifest.yaml"), "utf8").replace("class: tool", "class: tool\nimagee: x").replace("recommended_policy: allow", "recommended_policy: ask"));
    const lines: string[] = [];
    expect(await main(["check", dir], (l) => lines.push(l))).toBe(1);
    expect(lines.some((l) => l.endsWith("imagee: unknown key (Selu ignores it silently); did you mean image?"))).toBe(true);
    rmSync(root, { recursive: true, force: true });
  });
});
