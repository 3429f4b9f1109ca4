import type { ManifestView } from "./types.js";

/**
 * `config_json` as Selu builds it (`resolve_credentials`): exactly the credentials the manifest declares
 * in `scopes` that are set, by name; nothing else. A required one that is unset calls `missing`, which
 * throws the error Selu gives for its scope.
 */
export function credentialConfig(
  manifest: ManifestView,
  set: Readonly<Record<string, string>> | undefined,
  scopes: readonly ("user" | "system")[],
  missing: (name: string, scope: "user" | "system") => never,
): Record<string, string> {
  const config: Record<string, string> = {};
  for (const c of manifest.credentials) {
    if (!scopes.includes(c.scope)) continue;
    const value = set?.[c.name];
    if (value !== undefined) config[c.name] = value;
    else if (c.required ?? true) missing(c.name, c.scope);
  }
  return config;
}
