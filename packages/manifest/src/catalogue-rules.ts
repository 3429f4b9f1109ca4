import type { Manifest } from "./manifest-schema.js";
import { checkCatalogueId } from "./names.js";
import { type ManifestProblem, problem } from "./problem.js";

/**
 * The catalogue's own rules on top of Selu's, for manifests published from this repository: the id is
 * `catalogue-<name>` and no first-party Selu id ({@link checkCatalogueId}). (Tool names within 64
 * characters as `<id>__<tool>` are already checked by `checkManifestRules`, with whatever id the
 * manifest has.) Not wired in yet: once every capability is renamed, call it from `checkManifestRules`
 * (manifest-rules.ts), e.g. `problems.push(...checkCatalogueRules(manifest))` after the id check, so the
 * CLI, `loadManifest` and the conformance suite all report it.
 */
export function checkCatalogueRules(manifest: Pick<Manifest, "id">): ManifestProblem[] {
  const idProblem = checkCatalogueId(manifest.id);
  return idProblem ? [problem("rule", ["id"], idProblem)] : [];
}
