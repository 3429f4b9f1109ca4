import { type Document, isMap, isScalar, type Node, parseDocument, type YAMLMap } from "yaml";
import type { CapabilityDescription } from "./description.js";

/** The comment above each generated section; rewriting replaces it rather than stacking copies. */
export const GENERATED_NOTE = " Generated from the capability's code (describe() in dist/capability.js); edit the code, then run: selu-manifest write <capability-dir>";
const GENERATED_LINE = /generated from the (capability's )?code/i;

/**
 * Replaces manifest.yaml's `tools` and `credentials` with the code's, so the code is the one source of
 * tool schemas. Every other key keeps its value, position and comments (as far as the `yaml` Document API
 * keeps them); each generated section gets {@link GENERATED_NOTE} above it. For `tool_source: dynamic`
 * only credentials are written and `tools` stays `[]`, as Selu requires; a description that says
 * `tool_source` (a capability with discovery) sets it and `discovery_tool_name` in the file too.
 *
 * @throws Error when `yamlText` is not YAML with a mapping at the top: nothing can be kept from it.
 */
export function writeManifestTools(yamlText: string, description: CapabilityDescription): string {
  const doc = parseDocument(yamlText);
  const error = doc.errors[0];
  if (error) throw new Error(`manifest.yaml is not valid YAML, so it can't be rewritten: ${error.message.split("\n")[0]}`);
  if (doc.contents === null) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  const map = doc.contents;
  if (!isMap(map)) throw new Error("manifest.yaml must be a mapping at the top level to be rewritten (id: ..., class: ..., tools: ...)");

  // The code decides the tool source when it says (a capability with a discovery function); else the file does.
  const dynamic = description.tool_source ? description.tool_source === "dynamic" : doc.get("tool_source") === "dynamic";
  if (description.tool_source === "dynamic") {
    doc.set("tool_source", "dynamic");
    doc.set("discovery_tool_name", description.discovery_tool_name ?? "list_tools");
  } else if (description.tool_source === "manifest") {
    doc.delete("tool_source");
    doc.delete("discovery_tool_name");
  }
  setGenerated(doc, map, "credentials", description.credentials.map(credentialEntry));
  setGenerated(doc, map, "tools", dynamic ? [] : description.tools.map(toolEntry));
  return doc.toString({ lineWidth: 0 });
}

// Explicit key order, so generated sections read the same in every manifest.
function toolEntry(tool: CapabilityDescription["tools"][number]) {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: tool.input_schema,
    recommended_policy: tool.recommended_policy,
    terminal_on_success: tool.terminal_on_success,
  };
}

function credentialEntry(credential: CapabilityDescription["credentials"][number]) {
  return {
    name: credential.name,
    scope: credential.scope,
    required: credential.required,
    description: credential.description,
    ...(credential.credential_type !== undefined ? { credential_type: credential.credential_type } : {}),
  };
}

function setGenerated(doc: Document, map: YAMLMap, key: string, value: unknown[]): void {
  const node = doc.createNode(value) as Node;
  let pair = map.items.find((p) => isScalar(p.key) && p.key.value === key);
  if (pair) pair.value = node;
  else {
    pair = doc.createPair(key, node);
    if (isScalar(pair.key)) pair.key.spaceBefore = true;
    map.items.push(pair);
  }
  if (!isScalar(pair.key)) return;
  const before = pair.key.commentBefore;
  const kept = before ? before.split("\n").filter((line) => !GENERATED_LINE.test(line)) : [];
  pair.key.commentBefore = [...kept, GENERATED_NOTE].join("\n");
}
