import type { CapabilityDescription } from "@selu-catalogue/kit";
import { parseDocument } from "yaml";

const NOTE = " Generated from the code (src/capability.ts): run `selu-manifest write .` after changing it.";

/**
 * Replaces the manifest's `tools` and `credentials` with the code's, keeping every other key, its order
 * and comments: the code is the one source of tool schemas.
 */
export function writeManifestTools(yamlText: string, code: CapabilityDescription): string {
  const doc = parseDocument(yamlText);
  if (doc.errors.length > 0) throw new Error(`manifest.yaml is not valid YAML: ${doc.errors[0]!.message}`);
  const credentials = code.credentials.map((c) => ({
    name: c.name,
    scope: c.scope,
    required: c.required,
    description: c.description,
    ...(c.credential_type ? { credential_type: c.credential_type } : {}),
  }));
  doc.set("credentials", doc.createNode(credentials));
  doc.set("tools", doc.createNode(code.tools));
  for (const key of ["credentials", "tools"]) {
    const pair = (doc.contents as { items: { key: { value: string; commentBefore?: string } }[] }).items.find((p) => p.key.value === key);
    if (pair) pair.key.commentBefore = NOTE;
  }
  return doc.toString({ lineWidth: 0 });
}
