import type { CapabilityDescription } from "@selu-catalogue/kit";
import type { Manifest } from "./manifest-schema.js";
import type { ManifestProblem } from "./parse.js";

/**
 * Differences between manifest.yaml and the capability's code: the manifest's tools and credentials must
 * be exactly what the code defines (regenerate them with `selu-manifest write`).
 */
export function checkManifestAgainstCode(manifest: Manifest, code: CapabilityDescription): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  if (manifest.id !== code.id) add("id", `is ${manifest.id}, the code says ${code.id}`);
  if (manifest.tool_source === "dynamic") return problems;
  const inManifest = new Map(manifest.tools.map((t, i) => [t.name, { t, i }]));
  for (const tool of code.tools) {
    const found = inManifest.get(tool.name);
    if (!found) {
      add("tools", `missing tool ${tool.name} that the code defines`);
      continue;
    }
    const { t, i } = found;
    const at = `tools[${i}]`;
    if (t.description !== tool.description) add(`${at}.description`, "differs from the code");
    if (t.recommended_policy !== tool.recommended_policy) add(`${at}.recommended_policy`, `is ${t.recommended_policy}, the code says ${tool.recommended_policy}`);
    if (t.terminal_on_success !== tool.terminal_on_success) add(`${at}.terminal_on_success`, `is ${t.terminal_on_success}, the code says ${tool.terminal_on_success}`);
    const diff = firstDifference(t.input_schema, tool.input_schema, `${at}.input_schema`);
    if (diff) add(diff, "differs from the schema in the code");
  }
  const inCode = new Set(code.tools.map((t) => t.name));
  manifest.tools.forEach((t, i) => inCode.has(t.name) || add(`tools[${i}]`, `tool ${t.name} is not defined in the code`));
  const creds = new Map(manifest.credentials.map((c, i) => [c.name, { c, i }]));
  for (const cred of code.credentials) {
    const found = creds.get(cred.name);
    if (!found) {
      add("credentials", `missing credential ${cred.name} that the code declares`);
      continue;
    }
    const { c, i } = found;
    for (const key of ["scope", "required", "description"] as const) {
      if (c[key] !== cred[key]) add(`credentials[${i}].${key}`, `is ${JSON.stringify(c[key])}, the code says ${JSON.stringify(cred[key])}`);
    }
  }
  const declared = new Set(code.credentials.map((c) => c.name));
  manifest.credentials.forEach((c, i) => declared.has(c.name) || add(`credentials[${i}]`, `credential ${c.name} is not declared in the code`));
  return problems;
}

/** The path of the first place two JSON values differ, or undefined when they are equal. */
export function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  if (a === b) return undefined;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return path;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return path;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
    const d = firstDifference(ra[key], rb[key], `${path}.${key}`);
    if (d) return d;
  }
  return undefined;
}
