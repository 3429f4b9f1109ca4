// Copies what a capability's process really loads into an image's app directory (issue 13: lean images):
// the bundle (dist/bundle/*.js, without source maps), the files of external packages that the bundle
// imports (traced with @vercel/nft, so a package's other builds, sources, tests and types stay out), and
// files the code opens by a computed path, which no tracer can see: those are listed in the capability's
// package.json as `"image": { "include": ["<package>/<path or glob>", ...] }` (pdfkit's font metrics,
// pdf.js's worker, the DejaVu fonts). A missing file shows up in the image tests (`./dev images`).
//   node scripts/images/runtime-files.mjs <deployed capability dir> <out dir>
// <deployed capability dir> is the output of `pnpm deploy --prod`; <out dir> must not exist.
import { copyFileSync, existsSync, globSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { nodeFileTrace } from "@vercel/nft";

/** Relative paths (files and the symlinks on the way to them) under `base` that the image needs. */
export async function runtimeFiles(base) {
  const pkg = JSON.parse(readFileSync(join(base, "package.json"), "utf8"));
  const bundle = readdirSync(join(base, "dist/bundle"))
    .filter((f) => f.endsWith(".js"))
    .map((f) => join(base, "dist/bundle", f));
  const { fileList } = await nodeFileTrace(bundle, { base, processCwd: base });
  const files = new Set([...fileList].filter((f) => f !== "package.json" && !f.endsWith(".map")));
  for (const pattern of pkg.image?.include ?? []) {
    const name = /^(@[^/]+\/)?[^/]+/.exec(pattern)?.[0];
    const link = join("node_modules", name);
    if (!name || !existsSync(join(base, link))) throw new Error(`image.include: ${pattern}: ${name} is not a dependency of ${pkg.name}`);
    const real = relative(base, realpathSync(join(base, link)));
    const matches = globSync(pattern.slice(name.length + 1), { cwd: join(base, real) });
    if (matches.length === 0) throw new Error(`image.include: ${pattern} matches no file`);
    for (const m of [...matches, "package.json"]) files.add(join(real, m));
    files.add(link);
  }
  return [...files].sort();
}

/** Copies `files` from `base` into `out`, keeping symlinks as symlinks, and writes a minimal package.json. */
export function copyRuntimeFiles(base, out, files) {
  const pkg = JSON.parse(readFileSync(join(base, "package.json"), "utf8"));
  mkdirSync(out, { recursive: true });
  for (const file of files) {
    const from = join(base, file);
    const stat = lstatSync(from, { throwIfNoEntry: false });
    if (!stat) continue;
    const to = join(out, file);
    mkdirSync(dirname(to), { recursive: true });
    if (existsSync(to) || lstatSync(to, { throwIfNoEntry: false })) continue;
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else if (stat.isFile()) copyFileSync(from, to);
  }
  // "type": "module" makes node load dist/bundle/main.js as ESM; nothing else of the package is read.
  const manifest = { name: pkg.name, version: pkg.version, private: true, type: "module" };
  writeFileSync(join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base, out] = process.argv.slice(2).map((p) => resolve(p));
  if (!base || !out) throw new Error("usage: runtime-files.mjs <deployed capability dir> <out dir>");
  if (existsSync(out)) throw new Error(`${out} exists already`);
  const files = await runtimeFiles(base);
  copyRuntimeFiles(base, out, files);
  process.stdout.write(`runtime-files: ${files.length} paths into ${out}\n`);
}
