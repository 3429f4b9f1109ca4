import type { Manifest } from "./manifest-schema.js";
import { checkCatalogueId } from "./names.js";
import { type ManifestProblem, problem } from "./problem.js";

/**
 * The catalogue's own rules on top of Selu's, for manifests published from this repository: the id is
 * `catalogue-<name>` and no first-party Selu id ({@link checkCatalogueId}). (Tool names within 64
 * characters as `<id>__<tool>` are already checked by `checkManifestRules`, with whatever id the
 * manifest has.) Selu itself doesn't require it, so `checkManifestRules` doesn't either: the testkit's
 * conformance suite (which every capability here runs) and `./dev new` apply it.
 */
export function checkCatalogueRules(manifest: Pick<Manifest, "id">): ManifestProblem[] {
  const idProblem = checkCatalogueId(manifest.id);
  return idProblem ? [problem("rule", ["id"], idProblem)] : [];
}
