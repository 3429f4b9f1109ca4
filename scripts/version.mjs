// One version everywhere (issue 13): a capability's package.json version is the tag of its image in
// manifest.yaml and the version label in its Dockerfile. `pnpm run version-packages` runs
// `changeset version` and then this; `--check` only reports (the catalogue test runs it).
//   node scripts/version.mjs [--check]
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parse } from "yaml";
import { capabilityDirs, dockerfile } from "./dockerfile.mjs";

/** The manifest's image reference with its tag set to `version` (registry, owner and name kept). */
export function withTag(image, version) {
  const at = image.lastIndexOf(":");
  const name = at > image.lastIndexOf("/") ? image.slice(0, at) : image;
  return `${name}:${version}`;
}

/** One message for each capability in `dirs` whose manifest image tag is not its package version. */
export function tagProblems(dirs) {
  const problems = [];
  for (const dir of dirs) {
    const { version, name } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const { image } = parse(readFileSync(join(dir, "manifest.yaml"), "utf8"));
    if (image !== withTag(image, version)) problems.push(`${dir}/manifest.yaml: image ${image} should be tagged ${version}, ${name}'s version (run: node scripts/version.mjs)`);
  }
  return problems;
}

/** Sets each manifest's image tag to its package version (only the `image:` line changes). */
export function writeTags(dirs) {
  for (const dir of dirs) {
    const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const path = join(dir, "manifest.yaml");
    const text = readFileSync(path, "utf8");
    const updated = text.replace(/^image:\s*(\S+)\s*$/m, (_, image) => `image: ${withTag(image.replace(/^["']|["']$/g, ""), version)}`);
    if (updated !== text) writeFileSync(path, updated);
    writeFileSync(join(dir, "Dockerfile"), dockerfile(dir));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { check: { type: "boolean", default: false } } });
  const dirs = capabilityDirs();
  if (values.check) {
    const problems = tagProblems(dirs);
    for (const p of problems) process.stderr.write(`${p}\n`);
    if (problems.length) process.exit(1);
  } else writeTags(dirs);
}
