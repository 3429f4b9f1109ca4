import type { CapabilityDescription, CredentialDescription, ToolDescription } from "./description.js";
import { firstDifference } from "./json-diff.js";
import type { Manifest, ManifestCredential, ManifestTool } from "./manifest-schema.js";
import { type KeyPath, type ManifestProblem, preview, problem } from "./problem.js";

/**
 * Differences between manifest.yaml and the capability's code. Selu shows the model what the manifest
 * says while the server validates with the code's schema, so any difference is a bug: missing or extra
 * tools, a different description, schema, policy or terminal flag (with the path of the first differing
 * schema keyword), and the same for credentials. `selu-manifest write` makes them equal.
 * Tools of a `tool_source: dynamic` manifest come from discovery at run time and are not compared.
 */
export function checkManifestAgainstCode(manifest: Manifest, description: CapabilityDescription): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const add = (keyPath: KeyPath, message: string) => problems.push(problem("drift", keyPath, message));
  if (manifest.id !== description.id) add(["id"], `is "${manifest.id}", the code says "${description.id}"`);
  if (description.tool_source && manifest.tool_source !== description.tool_source) {
    add(["tool_source"], `is ${manifest.tool_source}, the code says ${description.tool_source}`);
  } else if (description.tool_source === "dynamic" && manifest.discovery_tool_name !== description.discovery_tool_name) {
    add(["discovery_tool_name"], `is "${manifest.discovery_tool_name}", the code answers discovery as "${description.discovery_tool_name}"`);
  }
  if (manifest.tool_source === "manifest") compareTools(manifest.tools, description.tools, add);
  compareCredentials(manifest.credentials, description.credentials, add);
  return problems;
}

type Add = (keyPath: KeyPath, message: string) => void;

function compareTools(inManifest: ManifestTool[], inCode: ToolDescription[], add: Add): void {
  compareByName(TOOLS, inManifest, inCode, add, (tool, code, at) => {
    sameValue(at, "description", tool.description, code.description, add);
    sameValue(at, "recommended_policy", tool.recommended_policy, code.recommended_policy, add);
    sameValue(at, "terminal_on_success", tool.terminal_on_success, code.terminal_on_success, add);
    const difference = firstDifference(tool.input_schema, code.input_schema, [...at, "input_schema"]);
    if (difference) add(difference.keyPath, schemaDifference(difference.left, difference.right));
  });
}

function compareCredentials(inManifest: ManifestCredential[], inCode: CredentialDescription[], add: Add): void {
  compareByName(CREDENTIALS, inManifest, inCode, add, (credential, code, at) => {
    sameValue(at, "scope", credential.scope, code.scope, add);
    sameValue(at, "required", credential.required, code.required, add);
    sameValue(at, "description", credential.description, code.description, add);
    // Selu reads an absent credential_type as secret, so the code may leave it out.
    sameValue(at, "credential_type", credential.credential_type, code.credential_type ?? "secret", add);
  });
}

interface EntryWords {
  key: "tools" | "credentials";
  noun: string;
  /** How the code has one: "defined" or "declared". */
  participle: string;
  verb: string;
}
const TOOLS: EntryWords = { key: "tools", noun: "tool", participle: "defined", verb: "defines" };
const CREDENTIALS: EntryWords = { key: "credentials", noun: "credential", participle: "declared", verb: "declares" };

/** Pairs manifest entries with the code's by name: extra ones, missing ones, then `compare` on each pair. */
function compareByName<M extends { name: string }, C extends { name: string }>(
  { key, noun, participle, verb }: EntryWords,
  inManifest: M[],
  inCode: C[],
  add: Add,
  compare: (inManifest: M, inCode: C, at: KeyPath) => void,
): void {
  const codeByName = new Map(inCode.map((c) => [c.name, c]));
  const manifestNames = new Set(inManifest.map((m) => m.name));
  inManifest.forEach((entry, i) => {
    const code = codeByName.get(entry.name);
    const at: KeyPath = [key, i];
    if (!code) return add(at, `${noun} "${entry.name}" is not ${participle} in the code: expected it removed`);
    compare(entry, code, at);
  });
  for (const code of inCode) {
    if (!manifestNames.has(code.name)) add([key], `lacks ${noun} "${code.name}", which the code ${verb}`);
  }
}

function schemaDifference(inManifest: unknown, inCode: unknown): string {
  if (inManifest === undefined) return `is absent here, the code's schema has ${preview(inCode)}`;
  if (inCode === undefined) return `is ${preview(inManifest)} here, the code's schema has no such key`;
  return `is ${preview(inManifest)} here, the code's schema has ${preview(inCode)}`;
}

function sameValue(at: KeyPath, key: string, inManifest: unknown, inCode: unknown, add: Add): void {
  if (inManifest !== inCode) add([...at, key], `is ${preview(inManifest)}, the code says ${preview(inCode)}`);
}
