import { describe, expect, it } from "vitest";
import { parseManifest } from "./parse.js";
import { DYNAMIC_MANIFEST, ENVIRONMENT_MANIFEST, TOOL_MANIFEST, lines } from "./test-fixtures.js";

/** Problems of a manifest that has the right shape, so the rules ran (and the manifest is still returned). */
function ruleProblems(text: string): string[] {
  const { manifest, problems } = parseManifest(text);
  expect(manifest, "the shape should be valid for the rules to run").toBeDefined();
  return lines(problems);
}

describe("Selu's cross-field rules", () => {
  it("requires tools: [] for tool_source dynamic (anything else is a load error)", () => {
    expect(ruleProblems(TOOL_MANIFEST.replace("class: tool", "class: tool\ntool_source: dynamic"))).toEqual([
      "tools: has 1 tool(s): expected [] when tool_source is dynamic (tools come from list_tools)",
    ]);
  });

  it("requires a snake_case discovery tool name", () => {
    expect(ruleProblems(`${DYNAMIC_MANIFEST}discovery_tool_name: List-Tools\n`)).toEqual([expect.stringMatching(/^discovery_tool_name: "List-Tools" is not a snake_case identifier/)]);
  });

  it("refuses filesystem workspace for class tool", () => {
    expect(ruleProblems(ENVIRONMENT_MANIFEST.replace("class: environment", "class: tool").replace("cache: { enabled: true }\n", ""))).toEqual([
      "filesystem: is workspace: expected none or temp; a workspace volume is only for class environment",
    ]);
  });

  it("refuses an enabled cache for class tool", () => {
    expect(ruleProblems(`${TOOL_MANIFEST}cache: { enabled: true }\n`)).toEqual(["cache.enabled: is true: expected false; a cache volume is only for class environment"]);
  });

  it("refuses sharing mode shared for class environment", () => {
    expect(ruleProblems(`${ENVIRONMENT_MANIFEST}sharing: { mode: shared }\n`)).toEqual(["sharing.mode: is shared: expected exclusive, Selu does not allow shared containers for class environment"]);
  });
});

describe("catalogue rules", () => {
  it("requires at least one tool for tool_source manifest", () => {
    expect(ruleProblems(TOOL_MANIFEST.replace(/tools:\n[\s\S]*?credentials:/, "tools: []\ncredentials:"))).toEqual([expect.stringMatching(/^tools: is empty: expected at least one tool/)]);
  });

  it.each([
    ["my__cap", 'id: "my__cap" contains "__", which Selu uses to join the id and the tool name'],
    ["My-Cap", 'id: "My-Cap" has capitals: expected lowercase letters, digits and hyphens'],
    ["my_cap", 'id: "my_cap" has characters other than lowercase letters, digits and hyphens'],
    ["-cap", 'id: "-cap" must start and end with a letter or digit and not repeat hyphens'],
  ])("refuses the id %j (used in tool and container names)", (id, expected) => {
    expect(ruleProblems(TOOL_MANIFEST.replace("id: demo", `id: "${id}"`))).toEqual([expected]);
  });

  it("refuses a tool name that isn't snake_case", () => {
    expect(ruleProblems(TOOL_MANIFEST.replace("name: do_it", "name: doIt"))).toEqual([expect.stringMatching(/^tools\[0\]\.name: "doIt" is not a snake_case identifier/)]);
  });

  it("refuses a tool name that makes <id>__<tool> longer than providers accept", () => {
    const long = `do_${"x".repeat(60)}`;
    expect(ruleProblems(TOOL_MANIFEST.replace("name: do_it", `name: ${long}`))).toEqual([
      `tools[0].name: the model sees "demo__${long}" (69 characters): expected at most 64; shorten the tool name or the id`,
    ]);
  });

  it("refuses duplicate tool names", () => {
    const twice = TOOL_MANIFEST.replace("credentials:", "  - { name: do_it, description: Again, input_schema: { type: object } }\ncredentials:");
    expect(ruleProblems(twice)).toEqual(['tools[1].name: "do_it" is also the name of tools[0]: expected unique tool names']);
  });

  it("refuses an empty tool description", () => {
    expect(ruleProblems(TOOL_MANIFEST.replace("description: Does it", 'description: ""'))).toEqual(["tools[0].description: is empty: expected a description the model can choose the tool by"]);
  });

  it("reports the legacy requires_confirmation", () => {
    expect(ruleProblems(TOOL_MANIFEST.replace("    recommended_policy: allow", "    requires_confirmation: true"))).toEqual([
      "tools[0].requires_confirmation: is legacy: expected recommended_policy (ask to confirm each call) instead",
    ]);
  });

  it("checks each tool's input_schema", () => {
    expect(ruleProblems(TOOL_MANIFEST.replace("      type: object", "      type: array"))).toEqual([
      'tools[0].input_schema.type: is "array": expected "object" (Selu passes arguments as one JSON object)',
    ]);
  });

  it("refuses credential names that aren't UPPER_SNAKE_CASE, and duplicates", () => {
    const text = TOOL_MANIFEST.replace("  - name: API_TOKEN", "  - name: apiToken").concat("  - { name: apiToken, scope: system }\n");
    expect(ruleProblems(text)).toEqual([
      expect.stringMatching(/^credentials\[0\]\.name: "apiToken" is not UPPER_SNAKE_CASE/),
      expect.stringMatching(/^credentials\[1\]\.name: "apiToken" is not UPPER_SNAKE_CASE/),
      'credentials[1].name: "apiToken" is also the name of credentials[0]: expected unique names',
    ]);
  });

  it("refuses an image without a pinned tag", () => {
    expect(ruleProblems(TOOL_MANIFEST.replace(":1.0.0", ""))).toEqual([
      'image: "ghcr.io/selu-catalogue/selu-cap-demo" has no tag: pin a version (e.g. :1.0.0); Selu\'s runner never pulls a newer one',
    ]);
  });

  it("refuses an allowlist without hosts", () => {
    expect(ruleProblems(TOOL_MANIFEST.replace('  hosts: ["api.example.com:443", "*.example.org"]\n', ""))).toEqual([
      "network.hosts: is empty: expected at least one host for mode allowlist (or mode none)",
    ]);
  });

  it("reports hosts that have no effect because the mode isn't allowlist", () => {
    expect(ruleProblems(TOOL_MANIFEST.replace("mode: allowlist", "mode: any"))).toEqual(["network.hosts: has entries that have no effect with mode any: expected mode allowlist"]);
  });

  it("checks each host entry, at its index", () => {
    expect(ruleProblems(TOOL_MANIFEST.replace('"*.example.org"', '"https://example.org"'))).toEqual([
      'network.hosts[1]: "https://example.org" has a URL scheme: write only the host and port, e.g. example.org:443',
    ]);
  });

  it("reports max_concurrent that has no effect on an exclusive container", () => {
    expect(ruleProblems(`${TOOL_MANIFEST}sharing: { max_concurrent: 4 }\n`)).toEqual(["sharing.max_concurrent: is 4, which has no effect: it applies to sharing mode shared only"]);
  });

  it("reports every rule at once, each with its line", () => {
    const text = TOOL_MANIFEST.replace("id: demo", "id: De__mo").replace("name: do_it", "name: Do-It");
    const { problems } = parseManifest(text);
    expect(problems.map((p) => [p.path, p.line])).toEqual([
      ["id", 2],
      ["tools[0].name", 9],
    ]);
  });
});
