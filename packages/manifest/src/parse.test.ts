import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadManifest, parseManifest } from "./parse.js";
import { DYNAMIC_MANIFEST, ENVIRONMENT_MANIFEST, TOOL_MANIFEST, lines } from "./test-fixtures.js";

describe("parseManifest: valid manifests", () => {
  it("accepts a tool-class manifest and applies Selu's defaults", () => {
    const { manifest, problems } = parseManifest(TOOL_MANIFEST);
    expect(lines(problems)).toEqual([]);
    expect(manifest).toEqual({
      id: "demo",
      class: "tool",
      image: "ghcr.io/selu-catalogue/selu-cap-demo:1.0.0",
      tool_source: "manifest",
      discovery_tool_name: "list_tools",
      tools: [
        {
          name: "do_it",
          description: "Does it",
          input_schema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          recommended_policy: "allow",
          terminal_on_success: false,
        },
      ],
      network: { mode: "allowlist", hosts: ["api.example.com:443", "*.example.org"] },
      filesystem: "none",
      credentials: [{ name: "API_TOKEN", scope: "user", required: true, description: "Token for the API", credential_type: "secret" }],
      resources: { max_memory_mb: 128, max_cpu_fraction: 0.5, max_cpu_seconds: 30, pids_limit: 64 },
      cache: { enabled: false },
      sharing: { mode: "exclusive", max_concurrent: 1, idle_timeout_seconds: 300 },
    });
  });

  it("accepts an environment with a workspace and a cache", () => {
    const { manifest, problems } = parseManifest(ENVIRONMENT_MANIFEST);
    expect(lines(problems)).toEqual([]);
    expect(manifest).toMatchObject({ class: "environment", filesystem: "workspace", cache: { enabled: true } });
  });

  it("accepts a dynamic manifest with tools: [] and the default discovery tool", () => {
    const { manifest, problems } = parseManifest(DYNAMIC_MANIFEST);
    expect(lines(problems)).toEqual([]);
    expect(manifest).toMatchObject({ tool_source: "dynamic", tools: [], discovery_tool_name: "list_tools" });
    expect(manifest!.credentials[0]).toEqual({ name: "SERVER_URL", scope: "system", required: true, description: "", credential_type: "secret" });
  });

  it("defaults an absent recommended_policy to block, not allow", () => {
    const { manifest } = parseManifest(TOOL_MANIFEST.replace("    recommended_policy: allow\n", ""));
    expect(manifest!.tools[0]!.recommended_policy).toBe("block");
  });

  it("keeps explicit values over defaults, partly filled sections included", () => {
    const { manifest, problems } = parseManifest(`${TOOL_MANIFEST}resources: { max_memory_mb: 256 }\nsharing: { mode: shared, max_concurrent: 4 }\n`);
    expect(lines(problems)).toEqual([]);
    expect(manifest!.resources).toEqual({ max_memory_mb: 256, max_cpu_fraction: 0.5, max_cpu_seconds: 30, pids_limit: 64 });
    expect(manifest!.sharing).toEqual({ mode: "shared", max_concurrent: 4, idle_timeout_seconds: 300 });
  });
});

describe("parseManifest: YAML that Selu would skip silently", () => {
  it("reports a syntax error with its line and returns no manifest", () => {
    const { manifest, problems } = parseManifest("id: demo\nclass: tool\ntools: [\n  - name: x\n");
    expect(manifest).toBeUndefined();
    expect(problems[0]).toMatchObject({ kind: "yaml", path: "(document)", line: 4 });
    expect(problems[0]!.message).toMatch(/^YAML: /);
  });

  it("reports a duplicate key at the line of the second one", () => {
    const { manifest, problems } = parseManifest("id: demo\nclass: tool\nid: other\n");
    expect(manifest).toBeUndefined();
    expect(problems).toEqual([expect.objectContaining({ kind: "yaml", line: 3, message: "YAML: Map keys must be unique" })]);
  });

  it("reports a second document", () => {
    expect(parseManifest("id: a\n---\nid: b\n").problems[0]).toMatchObject({ kind: "yaml", line: 2 });
  });

  it("reports an alias to an anchor that doesn't exist", () => {
    const { manifest, problems } = parseManifest("id: *nowhere\n");
    expect(manifest).toBeUndefined();
    expect(problems[0]).toMatchObject({ kind: "yaml" });
  });

  it.each([
    ["", "an empty document"],
    ["- id: demo\n", "a list"],
    ["just text\n", '"just text"'],
  ])("refuses a document that is not a mapping: %j", (text, got) => {
    const { manifest, problems } = parseManifest(text);
    expect(manifest).toBeUndefined();
    expect(lines(problems)).toEqual([`(document): expected a mapping with id, class, image and tools, got ${got}`]);
  });
});

describe("parseManifest: shape problems", () => {
  it("requires class: the docs' default of tool is not what Selu does", () => {
    const { manifest, problems } = parseManifest(TOOL_MANIFEST.replace("class: tool\n", ""));
    expect(manifest).toBeUndefined();
    expect(lines(problems)).toEqual(["class: is required: expected one of tool, environment"]);
  });

  it("requires id and image", () => {
    const text = TOOL_MANIFEST.replace("id: demo\n", "").replace(/image: .*\n/, "");
    expect(lines(parseManifest(text).problems)).toEqual(["id: is required: expected a string", "image: is required: expected a string"]);
  });

  it("requires name, description and input_schema on each tool, at the tool's line", () => {
    const { problems } = parseManifest(TOOL_MANIFEST.replace("    description: Does it\n", ""));
    expect(problems).toEqual([expect.objectContaining({ kind: "shape", path: "tools[0].description", line: 9, message: "is required: expected a string" })]);
  });

  it("requires a credential's scope", () => {
    const { problems } = parseManifest(TOOL_MANIFEST.replace("    scope: user\n", ""));
    expect(lines(problems)).toEqual(["credentials[0].scope: is required: expected one of user, system"]);
  });

  it.each([
    ["class: tool", "class: service", 'class: expected one of tool, environment, got "service"'],
    ["    recommended_policy: allow", "    recommended_policy: always", 'tools[0].recommended_policy: expected one of allow, ask, block, got "always"'],
    ["    recommended_policy: allow", "    terminal_on_success: yes", 'tools[0].terminal_on_success: expected true or false, got "yes"'],
    ["  mode: allowlist", "  mode: open", 'network.mode: expected one of none, allowlist, any, got "open"'],
    ["class: tool", "class: tool\nfilesystem: home", 'filesystem: expected one of none, temp, workspace, got "home"'],
    ["class: tool", "class: tool\nresources: { max_memory_mb: 0 }", "resources.max_memory_mb: expected a number greater than 0, got 0"],
    ["class: tool", "class: tool\nresources: { pids_limit: 1.5 }", "resources.pids_limit: expected a whole number, got 1.5"],
    ["class: tool", "class: tool\nsharing: { mode: shard }", 'sharing.mode: expected one of exclusive, shared, got "shard"'],
    ["class: tool", "class: tool\ntool_source: discovered", 'tool_source: expected one of manifest, dynamic, got "discovered"'],
    ["class: tool", "class: tool\ncache: true", "cache: expected a mapping, got true"],
    [/input_schema:\n[\s\S]*?\[a\]/, "input_schema: [object]", "tools[0].input_schema: expected a mapping, got a list"],
    [/tools:\n[\s\S]*?credentials:/, "tools:\ncredentials:", "tools: expected a list, got an empty value"],
  ] as const)("reports %s -> %j with what was expected", (from, to, expected) => {
    const { manifest, problems } = parseManifest(TOOL_MANIFEST.replace(from, to));
    expect(manifest).toBeUndefined();
    expect(lines(problems)).toContain(expected);
  });

  it("reports every shape problem at once, in file order", () => {
    const text = TOOL_MANIFEST.replace("class: tool", "class: service").replace("    scope: user\n", "    scope: team\n");
    expect(lines(parseManifest(text).problems)).toEqual(['class: expected one of tool, environment, got "service"', 'credentials[0].scope: expected one of user, system, got "team"']);
  });
});

describe("loadManifest", () => {
  it("reads a file from disk", () => {
    const dir = mkdtempSync(join(tmpdir(), "manifest-load-"));
    try {
      writeFileSync(join(dir, "manifest.yaml"), TOOL_MANIFEST);
      expect(loadManifest(join(dir, "manifest.yaml")).manifest?.id).toBe("demo");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("throws Node's error, which names the path, for a missing file", () => {
    expect(() => loadManifest("/nonexistent/manifest.yaml")).toThrow("/nonexistent/manifest.yaml");
  });
});
