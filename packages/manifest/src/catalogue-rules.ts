import type { Manifest } from "./manifest-schema.js";
import { checkCatalogueId, checkQualifiedToolName } from "./names.js";
import { type ManifestProblem, problem } from "./problem.js";

/**
 * The catalogue's own rules on top of Selu's, for manifests published from this repository: the id is
 * `catalogue-<name>` and no first-party Selu id ({@link checkCatalogueId}), and every tool's
 * `<id>__<tool>` stays within 64 characters with that id. Not wired in yet: call it from
 * `checkManifestRules` (manifest-rules.ts) once every capability is renamed.
 */
export function checkCatalogueRules(manifest: Pick<Manifest, "id" | "tools">): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const idProblem = checkCatalogueId(manifest.id);
  if (idProblem) problems.push(problem("rule", ["id"], idProblem));
  manifest.tools.forEach((tool, i) => {
    const tooLong = checkQualifiedToolName(manifest.id, tool.name);
    if (tooLong) problems.push(problem("rule", ["tools", i, "name"], tooLong));
  });
  return problems;
}
