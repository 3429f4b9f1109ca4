#!/usr/bin/env node
// selu-manifest check|write <capability-dir>...: keeps manifest.yaml valid and equal to the code.
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { CapabilityDescription } from "@selu-catalogue/kit";
import { checkManifestAgainstCode } from "./compare.js";
import { parseManifest } from "./parse.js";
import { writeManifestTools } from "./write-tools.js";

/** Runs the CLI; returns the exit code. Output goes through `out` so tests can read it. */
export async function main(argv: readonly string[], out: (line: string) => void = console.log): Promise<number> {
  const [command, ...dirs] = argv;
  if ((command !== "check" && command !== "write") || dirs.length === 0) {
    out("usage: selu-manifest check|write <capability-dir>...");
    return 2;
  }
  let failed = false;
  for (const dir of dirs.map((d) => resolve(d))) {
    const file = join(dir, "manifest.yaml");
    const code = await describe(dir);
    if (command === "write") writeFileSync(file, writeManifestTools(readFileSync(file, "utf8"), code));
    const { manifest, problems } = parseManifest(readFileSync(file, "utf8"));
    const all = [...problems];
    if (manifest) {
      if (manifest.id !== basename(dir)) all.push({ path: "id", message: `must equal the directory name ${basename(dir)}` });
      all.push(...checkManifestAgainstCode(manifest, code));
    }
    for (const p of all) out(`${file}: ${p.path}: ${p.message}`);
    if (all.length === 0) out(`${file}: OK${command === "write" ? " (tools and credentials written from the code)" : ""}`);
    failed ||= all.length > 0;
  }
  return failed ? 1 : 0;
}

async function describe(dir: string): Promise<CapabilityDescription> {
  const mod = (await import(pathToFileURL(join(dir, "dist/capability.js")).href)) as { default?: { describe?: () => CapabilityDescription } };
  if (typeof mod.default?.describe !== "function") throw new Error(`${dir}/dist/capability.js has no default export with describe(): build it first`);
  return mod.default.describe();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exitCode = await main(process.argv.slice(2));
