import { describe, expect, it } from "vitest";
import { checkManifestAgainstCode } from "./compare.js";
import type { CapabilityDescription } from "./description.js";
import type { Manifest } from "./manifest-schema.js";
import { parseManifest } from "./parse.js";
import { DYNAMIC_MANIFEST, TOOL_MANIFEST, lines, toolCode } from "./test-fixtures.js";

const manifestOf = (text: string): Manifest => parseManifest(text).manifest!;
const drift = (text: string, code: CapabilityDescription) => lines(checkManifestAgainstCode(manifestOf(text), code));

describe("checkManifestAgainstCode", () => {
  it("finds nothing when manifest and code agree", () => {
    expect(drift(TOOL_MANIFEST, toolCode())).toEqual([]);
  });

  it("reports every problem as kind drift", () => {
    const code = { ...toolCode(), id: "other" };
    expect(checkManifestAgainstCode(manifestOf(TOOL_MANIFEST), code)).toEqual([{ kind: "drift", path: "id", keyPath: ["id"], message: 'is "demo", the code says "other"' }]);
  });

  it("reports a tool the code defines but the manifest lacks", () => {
    const code = toolCode();
    code.tools.push({ ...code.tools[0]!, name: "undo_it" });
    expect(drift(TOOL_MANIFEST, code)).toEqual(['tools: lacks tool "undo_it", which the code defines']);
  });

  it("reports a tool in the manifest that the code doesn't define", () => {
    expect(drift(TOOL_MANIFEST, { ...toolCode(), tools: [] })).toEqual(['tools[0]: tool "do_it" is not defined in the code: expected it removed']);
  });

  it("reports a different description, policy and terminal flag", () => {
    const code = toolCode();
    code.tools[0] = { ...code.tools[0]!, description: "Does it well", recommended_policy: "ask", terminal_on_success: true };
    expect(drift(TOOL_MANIFEST, code)).toEqual([
      'tools[0].description: is "Does it", the code says "Does it well"',
      'tools[0].recommended_policy: is "allow", the code says "ask"',
      "tools[0].terminal_on_success: is false, the code says true",
    ]);
  });

  it("compares against Selu's default when the manifest leaves the policy out", () => {
    expect(drift(TOOL_MANIFEST.replace("    recommended_policy: allow\n", ""), toolCode())).toEqual(['tools[0].recommended_policy: is "block", the code says "allow"']);
  });

  it("points at the first differing schema keyword, both ways", () => {
    const code = toolCode();
    code.tools[0]!.input_schema = { type: "object", properties: { a: { type: "string", minLength: 1 } }, required: ["a"] };
    expect(drift(TOOL_MANIFEST, code)).toEqual(["tools[0].input_schema.properties.a.minLength: is absent here, the code's schema has 1"]);
    code.tools[0]!.input_schema = { type: "object", properties: { a: { type: "number" } } };
    expect(drift(TOOL_MANIFEST, code)).toEqual([`tools[0].input_schema.properties.a.type: is "string" here, the code's schema has "number"`]);
    code.tools[0]!.input_schema = { type: "object", properties: { a: { type: "string" } } };
    expect(drift(TOOL_MANIFEST, code)).toEqual([`tools[0].input_schema.required: is ["a"] here, the code's schema has no such key`]);
  });

  it("matches tools by name, not position", () => {
    const twoTools = TOOL_MANIFEST.replace("credentials:", "  - { name: b_tool, description: B, input_schema: { type: object } }\ncredentials:");
    const code = toolCode();
    code.tools.unshift({ name: "b_tool", description: "B", input_schema: { type: "object" }, recommended_policy: "block", terminal_on_success: false });
    expect(drift(twoTools, code)).toEqual([]);
  });

  it("reports credential differences: missing, extra, scope, required, description, type", () => {
    const code = toolCode();
    code.credentials = [
      { name: "API_TOKEN", scope: "system", required: false, description: "Token", credential_type: "password" },
      { name: "API_URL", scope: "system", required: true, description: "URL" },
    ];
    expect(drift(TOOL_MANIFEST, code)).toEqual([
      'credentials[0].scope: is "user", the code says "system"',
      "credentials[0].required: is true, the code says false",
      'credentials[0].description: is "Token for the API", the code says "Token"',
      'credentials[0].credential_type: is "secret", the code says "password"',
      'credentials: lacks credential "API_URL", which the code declares',
    ]);
    expect(drift(TOOL_MANIFEST, { ...toolCode(), credentials: [] })).toEqual(['credentials[0]: credential "API_TOKEN" is not declared in the code: expected it removed']);
  });

  it("doesn't compare the tools of a dynamic manifest, which come from discovery, but does compare credentials", () => {
    const code: CapabilityDescription = {
      id: "mcp-bridge",
      tools: toolCode().tools,
      credentials: [{ name: "SERVER_URL", scope: "system", required: true, description: "" }],
    };
    expect(drift(DYNAMIC_MANIFEST, code)).toEqual([]);
    expect(drift(DYNAMIC_MANIFEST, { ...code, credentials: [] })).toEqual(['credentials[0]: credential "SERVER_URL" is not declared in the code: expected it removed']);
  });

  it("reports a manifest that is not dynamic when the code answers discovery, and a different discovery tool name", () => {
    const code: CapabilityDescription = { ...toolCode(), tool_source: "dynamic", discovery_tool_name: "list_tools" };
    expect(lines(checkManifestAgainstCode(parseManifest(TOOL_MANIFEST).manifest!, code))).toContain("tool_source: is manifest, the code says dynamic");
    const dynamic = parseManifest(DYNAMIC_MANIFEST.replace("tool_source: dynamic", "tool_source: dynamic\ndiscovery_tool_name: tools")).manifest!;
    expect(lines(checkManifestAgainstCode(dynamic, { ...code, id: "mcp-bridge", credentials: [] })).filter((l) => l.startsWith("discovery"))).toEqual([
      'discovery_tool_name: is "tools", the code answers discovery as "list_tools"',
    ]);
  });
});
