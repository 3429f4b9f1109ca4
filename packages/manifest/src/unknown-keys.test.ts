import { describe, expect, it } from "vitest";
import { parseManifest } from "./parse.js";
import { TOOL_MANIFEST, lines } from "./test-fixtures.js";

const IGNORED = "unknown key (Selu ignores it silently)";

function unknownKeys(text: string) {
  return parseManifest(text).problems.filter((p) => p.kind === "unknown-key");
}

describe("unknown keys, which Selu ignores silently", () => {
  it("reports one at the top level with a suggestion, and still returns the manifest", () => {
    const { manifest, problems } = parseManifest(`${TOOL_MANIFEST}netwrk: { mode: any }\n`);
    expect(manifest).toBeDefined();
    expect(problems).toEqual([{ kind: "unknown-key", path: "netwrk", keyPath: ["netwrk"], line: 21, message: `${IGNORED}; did you mean network?` }]);
  });

  it("reports one inside a tool, with its index", () => {
    const text = TOOL_MANIFEST.replace("    recommended_policy: allow", "    recommend_policy: allow");
    expect(lines(unknownKeys(text))).toEqual([`tools[0].recommend_policy: ${IGNORED}; did you mean recommended_policy?`]);
  });

  it("reports one inside a credential", () => {
    const text = TOOL_MANIFEST.replace("    scope: user", "    scope: user\n    optional: true");
    expect(lines(unknownKeys(text))).toEqual([`credentials[0].optional: ${IGNORED}; expected one of name, scope, required, description, credential_type`]);
  });

  it("reports nested ones in network, resources, sharing and cache", () => {
    const text = `${TOOL_MANIFEST.replace("  mode: allowlist", "  mode: allowlist\n  allowed_hosts: []")}resources: { memory: 256 }\nsharing: { max_concurent: 2 }\ncache: { enable: true }\n`;
    expect(lines(unknownKeys(text))).toEqual([
      `network.allowed_hosts: ${IGNORED}; did you mean hosts?`,
      `resources.memory: ${IGNORED}; did you mean max_memory_mb?`,
      `sharing.max_concurent: ${IGNORED}; did you mean max_concurrent?`,
      `cache.enable: ${IGNORED}; did you mean enabled?`,
    ]);
  });

  it("suggests the snake_case key for a camelCase one", () => {
    const text = TOOL_MANIFEST.replace("    recommended_policy: allow", "    terminalOnSuccess: true");
    expect(lines(unknownKeys(text))).toEqual([`tools[0].terminalOnSuccess: ${IGNORED}; did you mean terminal_on_success?`]);
  });

  it("says where a known key written at the wrong level belongs", () => {
    expect(lines(unknownKeys(`${TOOL_MANIFEST}max_memory_mb: 256\nhosts: [a.example.com]\n`))).toEqual([
      `max_memory_mb: ${IGNORED}; did you mean resources.max_memory_mb? (max_memory_mb belongs under resources)`,
      `hosts: ${IGNORED}; did you mean network.hosts? (hosts belongs under network)`,
    ]);
  });

  it("lists the expected keys when nothing is close", () => {
    expect(lines(unknownKeys(`${TOOL_MANIFEST}version: 1\n`))).toEqual([
      `version: ${IGNORED}; expected one of id, class, image, tool_source, discovery_tool_name, tools, network, filesystem, credentials, resources, cache, sharing`,
    ]);
  });

  it("does not look inside input_schema, where any JSON Schema keyword is fine", () => {
    expect(unknownKeys(TOOL_MANIFEST.replace("a: { type: string }", "a: { type: string, minLength: 1, x-custom: 2 }"))).toEqual([]);
  });

  it("still reports unknown keys when the shape is wrong elsewhere", () => {
    const { manifest, problems } = parseManifest(`${TOOL_MANIFEST.replace("class: tool", "class: nope")}imagee: x\n`);
    expect(manifest).toBeUndefined();
    expect(problems.map((p) => p.kind)).toEqual(["shape", "unknown-key"]);
  });

  it("reports YAML merge keys, which Selu doesn't expand", () => {
    expect(lines(unknownKeys(`${TOOL_MANIFEST}base: &base { max_memory_mb: 256 }\nresources: { <<: *base }\n`))).toEqual([
      `base: ${IGNORED}; expected one of id, class, image, tool_source, discovery_tool_name, tools, network, filesystem, credentials, resources, cache, sharing`,
      `resources["<<"]: ${IGNORED}; expected one of max_memory_mb, max_cpu_fraction, max_cpu_seconds, pids_limit`,
    ]);
  });
});
