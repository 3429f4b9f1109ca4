import type { CredentialSpecs } from "../tool-context.js";
import { CredentialsError } from "../errors.js";

/**
 * Reads declared credentials from `config_json` (`{"NAME": "value"}`); undeclared keys are ignored and
 * values never appear in errors. Fails when one of `needed` is missing or empty.
 */
export function readCredentials(config: Record<string, unknown>, specs: CredentialSpecs, needed: readonly string[], capabilityId: string): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const name of Object.keys(specs)) {
    const value = config[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") {
      throw new CredentialsError(`config_json: credential ${name} must be a string, got ${Array.isArray(value) ? "an array" : typeof value}`);
    }
    values[name] = value;
  }
  const missing = needed.filter((name) => !values[name]);
  if (missing.length > 0) {
    const scopes = [...new Set(missing.map((name) => specs[name]?.scope ?? "user"))];
    throw new CredentialsError(
      `missing credential${missing.length > 1 ? "s" : ""} ${missing.join(", ")}: ` +
        `set ${missing.length > 1 ? "them" : "it"} in Selu's credentials for the ${capabilityId} capability ` +
        `(${scopes.join("/")} scope)`,
    );
  }
  return values;
}
