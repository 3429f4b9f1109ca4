import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkCapabilityId, checkCatalogueId } from "@selu-catalogue/manifest";
import { capabilityTemplate } from "./templates.js";

/**
 * Scaffolds `capabilities/<id>/` under `root`: a capability with one tool that installs, builds and
 * passes every check as it is (manifest, Dockerfile, prompts, README with its tool table, German
 * strings, source, an end-to-end test on the testkit's orchestrator double, the conformance test) and a
 * changeset. The manifest's `tools` are left for `selu-manifest write` to fill from the built code,
 * which `./dev new` runs next. Returns the files created, relative to `root`.
 *
 * @throws Error when `id` is not a valid capability id or `capabilities/<id>` already exists.
 */
export function scaffoldCapability(root: string, id: string): string[] {
  const problem = checkCapabilityId(id) ?? checkCatalogueId(id);
  if (problem) throw new Error(`capability id ${problem}`);
  const dir = join("capabilities", id);
  if (existsSync(join(root, dir))) throw new Error(`${dir} already exists`);
  const files = capabilityTemplate(id);
  const created: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    const target = path.startsWith(".changeset/") ? path : join(dir, path);
    mkdirSync(dirname(join(root, target)), { recursive: true });
    writeFileSync(join(root, target), text, { flag: "wx" });
    created.push(target);
  }
  return created;
}
