import { checkHostEntry } from "./host-entry.js";
import { checkInputSchema } from "./input-schema.js";
import type { Manifest } from "./manifest-schema.js";
import { checkCapabilityId, checkCredentialName, checkImageReference, checkQualifiedToolName, checkToolName } from "./names.js";
import { type KeyPath, type ManifestProblem, problem } from "./problem.js";

/**
 * The rules a manifest's shape can't express: Selu's cross-field rules (dynamic tools, what only class
 * environment may use) and the catalogue's (names, hosts, input schemas, settings that would be ignored).
 * Runs on a manifest that already has the right shape, so every rule can be reported at once.
 */
export function checkManifestRules(manifest: Manifest): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const add = (path: KeyPath, message: string | undefined) => {
    if (message !== undefined) problems.push(problem("rule", path, message));
  };
  add(["id"], checkCapabilityId(manifest.id));
  add(["image"], checkImageReference(manifest.image));
  checkToolSource(manifest, add);
  checkTools(manifest, add, problems);
  checkCredentials(manifest, add);
  checkEnvironmentOnly(manifest, add);
  checkSharing(manifest, add);
  checkNetwork(manifest, add);
  return problems;
}

type Add = (path: KeyPath, message: string | undefined) => void;

function checkToolSource(m: Manifest, add: Add): void {
  if (m.tool_source === "dynamic") {
    // Contract section 5: anything but `tools: []` is a load error for a dynamic manifest.
    if (m.tools.length > 0) add(["tools"], `has ${m.tools.length} tool(s): expected [] when tool_source is dynamic (tools come from ${m.discovery_tool_name})`);
    add(["discovery_tool_name"], checkToolName(m.discovery_tool_name));
  } else if (m.tools.length === 0) {
    add(["tools"], "is empty: expected at least one tool (or tool_source: dynamic); `selu-manifest write` fills it from the code");
  }
}

function checkTools(m: Manifest, add: Add, problems: ManifestProblem[]): void {
  const seen = new Map<string, number>();
  m.tools.forEach((tool, i) => {
    const at = ["tools", i];
    add([...at, "name"], checkToolName(tool.name) ?? checkQualifiedToolName(m.id, tool.name));
    const first = seen.get(tool.name);
    if (first !== undefined) add([...at, "name"], `"${tool.name}" is also the name of tools[${first}]: expected unique tool names`);
    else seen.set(tool.name, i);
    if (tool.description.trim() === "") add([...at, "description"], "is empty: expected a description the model can choose the tool by");
    if (tool.requires_confirmation !== undefined) {
      add([...at, "requires_confirmation"], "is legacy: expected recommended_policy (ask to confirm each call) instead");
    }
    problems.push(...checkInputSchema(tool.input_schema, [...at, "input_schema"]));
  });
}

function checkCredentials(m: Manifest, add: Add): void {
  const seen = new Map<string, number>();
  m.credentials.forEach((credential, i) => {
    const at = ["credentials", i];
    add([...at, "name"], checkCredentialName(credential.name));
    const first = seen.get(credential.name);
    if (first !== undefined) add([...at, "name"], `"${credential.name}" is also the name of credentials[${first}]: expected unique names`);
    else seen.set(credential.name, i);
    if (credential.credential_type.trim() === "") add([...at, "credential_type"], "is empty: expected a type such as secret (the default)");
  });
}

function checkEnvironmentOnly(m: Manifest, add: Add): void {
  if (m.class === "environment") {
    if (m.sharing.mode === "shared") add(["sharing", "mode"], "is shared: expected exclusive, Selu does not allow shared containers for class environment");
    return;
  }
  if (m.filesystem === "workspace") add(["filesystem"], "is workspace: expected none or temp; a workspace volume is only for class environment");
  if (m.cache.enabled) add(["cache", "enabled"], "is true: expected false; a cache volume is only for class environment");
}

function checkSharing(m: Manifest, add: Add): void {
  if (m.sharing.mode === "exclusive" && m.sharing.max_concurrent > 1) {
    add(["sharing", "max_concurrent"], `is ${m.sharing.max_concurrent}, which has no effect: it applies to sharing mode shared only`);
  }
}

function checkNetwork(m: Manifest, add: Add): void {
  const { mode, hosts } = m.network;
  if (mode === "allowlist" && hosts.length === 0) add(["network", "hosts"], "is empty: expected at least one host for mode allowlist (or mode none)");
  if (mode !== "allowlist" && hosts.length > 0) add(["network", "hosts"], `has entries that have no effect with mode ${mode}: expected mode allowlist`);
  hosts.forEach((host, i) => add(["network", "hosts", i], checkHostEntry(host)));
}
