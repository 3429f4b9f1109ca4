import { describe, expect, it } from "vitest";
import { checkManifestAgainstCode } from "./compare.js";
import type { CapabilityDescription } from "./description.js";
import { parseManifest } from "./parse.js";
import { DYNAMIC_MANIFEST, TOOL_MANIFEST, lines, toolCode } from "./test-fixtures.js";
import { GENERATED_NOTE, writeManifestTools } from "./write-tools.js";

/** A code description that differs from TOOL_MANIFEST in every generated field. */
function changedCode(): CapabilityDescription {
  return {
    id: "demo",
    tools: [
      {
        name: "make_report",
        description: "Makes a report: with a colon, # a hash and 'quotes'",
        input_schema: {
          type: "object",
          properties: {
            title: { type: "string", pattern: "^[\\w][\\w .-]{0,99}$" },
            attachments: { type: "array", items: { type: "object", properties: { artifact_id: { type: "string" } }, required: ["artifact_id"] } },
          },
          required: ["title"],
          additionalProperties: false,
        },
        recommended_policy: "ask",
        terminal_on_success: true,
      },
      { name: "list_reports", description: "Lists reports.\nOne per line.", input_schema: { type: "object" }, recommended_policy: "allow", terminal_on_success: false },
    ],
    credentials: [{ name: "REPORT_KEY", scope: "system", required: false, description: "Key", credential_type: "api_key" }],
  };
}

const CUSTOM = `# Header comment that must survive.
id: demo # the directory name
class: tool
image: ghcr.io/selu-catalogue/selu-cap-demo:1.0.0

# Egress: only the API.
network:
  mode: allowlist
  hosts: ["api.example.com:443"] # flow style kept
# A note of ours about tools.
tools:
  - name: old_tool
    description: Old
    input_schema: { type: object }
resources:
  max_memory_mb: 256 # measured
sharing: { mode: shared, max_concurrent: 4 }
`;

describe("writeManifestTools", () => {
  it("writes the code's tools and credentials so that check finds nothing (round trip)", () => {
    const written = writeManifestTools(CUSTOM, changedCode());
    const { manifest, problems } = parseManifest(written);
    expect(lines(problems)).toEqual([]);
    expect(lines(checkManifestAgainstCode(manifest!, changedCode()))).toEqual([]);
  });

  it("keeps comments, unrelated keys, their order and flow style", () => {
    const written = writeManifestTools(CUSTOM, changedCode());
    // yaml pads flow collections uniformly ({ a: 1 } and [ a ]), the one change to untouched lines.
    const untouched = CUSTOM.slice(0, CUSTOM.indexOf("tools:")).replace('["api.example.com:443"]', '[ "api.example.com:443" ]');
    expect(written.startsWith(untouched)).toBe(true);
    expect(written).toContain("resources:\n  max_memory_mb: 256 # measured\nsharing: { mode: shared, max_concurrent: 4 }\n");
    expect([...written.matchAll(/^(\w+):/gm)].map((m) => m[1])).toEqual(["id", "class", "image", "network", "tools", "resources", "sharing", "credentials"]);
  });

  it("marks each generated section with a comment saying how to regenerate it", () => {
    const written = writeManifestTools(CUSTOM, changedCode());
    expect(written).toContain(`# A note of ours about tools.\n#${GENERATED_NOTE}\ntools:\n`);
    expect(written).toContain(`\n\n#${GENERATED_NOTE}\ncredentials:\n`);
    expect(GENERATED_NOTE).toContain("selu-manifest write");
  });

  it("is idempotent: writing twice gives the same text, with one note per section", () => {
    const once = writeManifestTools(CUSTOM, changedCode());
    const twice = writeManifestTools(once, changedCode());
    expect(twice).toBe(once);
    expect(twice.split(GENERATED_NOTE)).toHaveLength(3);
  });

  it("replaces an older generated note instead of stacking a second one", () => {
    const old = "# Generated from the code (src/capability.ts): run `selu-manifest write .` after changing it.\n";
    const written = writeManifestTools(TOOL_MANIFEST.replace("tools:", `${old}tools:`), toolCode());
    expect(written).not.toContain(old);
    expect(written).toContain(`#${GENERATED_NOTE}\ntools:`);
  });

  it("gives a manifest that already matches only the generated notes", () => {
    const written = writeManifestTools(TOOL_MANIFEST, toolCode());
    expect(parseManifest(written).manifest).toEqual(parseManifest(TOOL_MANIFEST).manifest);
  });

  it("writes credentials: [] when the code declares none", () => {
    expect(writeManifestTools(TOOL_MANIFEST, { ...toolCode(), credentials: [] })).toMatch(/^credentials: \[\]$/m);
  });

  it("keeps tools: [] for a dynamic manifest and writes only credentials", () => {
    const written = writeManifestTools(DYNAMIC_MANIFEST, { ...changedCode(), id: "mcp-bridge" });
    const { manifest, problems } = parseManifest(written);
    expect(lines(problems)).toEqual([]);
    expect(manifest!.tools).toEqual([]);
    expect(manifest!.credentials.map((c) => c.name)).toEqual(["REPORT_KEY"]);
  });

  it("makes a manifest dynamic, with tools: [] and the discovery tool's name, when the code has discovery", () => {
    const code: CapabilityDescription = { ...changedCode(), tool_source: "dynamic", discovery_tool_name: "list_tools" };
    const written = writeManifestTools(CUSTOM, code);
    const { manifest, problems } = parseManifest(written);
    expect(lines(problems)).toEqual([]);
    expect(manifest).toMatchObject({ tool_source: "dynamic", discovery_tool_name: "list_tools", tools: [] });
    expect(lines(checkManifestAgainstCode(manifest!, code))).toEqual([]);
  });

  it("fills in a manifest that has no tools or credentials yet", () => {
    const written = writeManifestTools("id: demo\nclass: tool\nimage: ghcr.io/o/selu-cap-demo:1.0.0\n", toolCode());
    expect(lines(parseManifest(written).problems)).toEqual([]);
    expect(written.startsWith("id: demo\nclass: tool\nimage: ghcr.io/o/selu-cap-demo:1.0.0\n")).toBe(true);
  });

  it("refuses to rewrite text that isn't YAML, saying why", () => {
    expect(() => writeManifestTools("id: [demo\n", toolCode())).toThrow(/^manifest\.yaml is not valid YAML, so it can't be rewritten: /);
    expect(() => writeManifestTools("- a\n", toolCode())).toThrow(/must be a mapping at the top level/);
  });
});
