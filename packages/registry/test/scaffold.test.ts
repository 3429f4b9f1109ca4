import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { loadCodeDescription, runCli, writeManifestTools } from "@selu-catalogue/manifest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRegistry } from "../src/build.js";
import { main as runRegistryCli } from "../src/cli.js";
import { discoverCapabilities, loadCapabilitySource } from "../src/capability-source.js";
import { checkReadme } from "../src/readme-check.js";
import { scaffoldCapability } from "../src/scaffold/scaffold.js";
import { REPO_ROOT } from "../src/test-fixtures.js";
import { SCHEMA_HEADER } from "./schema-header.js";

// Scaffolds into a temp tree and runs on the result what `./dev new` and `./dev test` run: build,
// `selu-manifest write` and `check`, typecheck, the capability's own tests (end to end and
// conformance) and the registry's checks. Instead of a fresh `pnpm install` (slow), the new capability
// borrows the node_modules of a repository capability with the same dependencies.
// Follows the catalogue id rule (catalogue-<name>), which holds for every capability after the rename.
const id = "catalogue-scaffold-probe";
// Inside the checkout (ignored by git): the conformance sandbox gives the capability its own empty /tmp.
// Not under node_modules/, where Biome refuses to look.
mkdirSync(join(REPO_ROOT, ".cache"), { recursive: true });
const root = mkdtempSync(join(REPO_ROOT, ".cache", "scaffold-"));
const dir = join(root, "capabilities", id);
let created: string[];

beforeAll(async () => {
  writeFileSync(join(root, "pnpm-workspace.yaml"), "packages: [capabilities/*]\n");
  mkdirSync(join(root, "scripts"));
  copyFileSync(join(REPO_ROOT, "scripts", "bundle-entry.mjs"), join(root, "scripts", "bundle-entry.mjs"));
  symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"));
  created = scaffoldCapability(root, id);
  const deps = Object.keys({ ...pkg(dir).dependencies, ...pkg(dir).devDependencies });
  const donor = discoverCapabilities(REPO_ROOT).find((d) => deps.every((dep) => existsSync(join(d, "node_modules", dep, "package.json"))));
  if (!donor) throw new Error(`no capability in the repository has all of ${deps.join(", ")} installed: run ./dev install`);
  symlinkSync(join(donor, "node_modules"), join(dir, "node_modules"));
  // Where the repository generates Dockerfiles from one template (issue 13), the new one is generated too.
  const generator = join(REPO_ROOT, "scripts", "dockerfile.mjs");
  if (existsSync(generator)) {
    const { dockerfile } = (await import(generator)) as { dockerfile(dir: string): string };
    writeFileSync(join(dir, "Dockerfile"), dockerfile(dir));
  }
  run(pkg(dir).scripts.build!);
  const manifestFile = join(dir, "manifest.yaml");
  writeFileSync(manifestFile, writeManifestTools(readFileSync(manifestFile, "utf8"), await loadCodeDescription(dir)));
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function pkg(at: string): { scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> } {
  return JSON.parse(readFileSync(join(at, "package.json"), "utf8"));
}

function run(command: string): string {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", PATH: `${join(dir, "node_modules", ".bin")}:${process.env.PATH}` };
  delete env.FORCE_COLOR;
  for (const key of Object.keys(env)) if (key.startsWith("VITEST")) delete env[key];
  try {
    return execFileSync("sh", ["-c", command], { cwd: dir, env, encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} failed:\n${e.stdout ?? ""}${e.stderr ?? ""}`, { cause: error });
  }
}

describe("./dev new", () => {
  it("writes the capability, its German strings and a changeset", () => {
    expect(created).toEqual(
      expect.arrayContaining([`capabilities/${id}/manifest.yaml`, `capabilities/${id}/agent/de.yaml`, `capabilities/${id}/test/conformance.test.ts`, `.changeset/${id}-capability.md`]),
    );
  });

  it("refuses an id Selu can't use and a directory that exists", () => {
    expect(() => scaffoldCapability(root, "Bad__id")).toThrow(/capability id "Bad__id" contains "__"/);
    expect(() => scaffoldCapability(root, id)).toThrow(`capabilities/${id} already exists`);
  });

  it("passes selu-manifest check once written from the built code", async () => {
    const lines: string[] = [];
    expect(await runCli(["check", dir], { out: (l) => lines.push(l), err: (l) => lines.push(l) })).toBe(0);
    expect(readFileSync(join(dir, "manifest.yaml"), "utf8").split("\n")[0]).toBe(SCHEMA_HEADER);
  });

  it("typechecks, sources and tests included", () => {
    run(pkg(dir).scripts.typecheck!);
  });

  it("passes its own end-to-end and conformance tests", () => {
    expect(run("vitest run --reporter=dot")).toMatch(/Tests\s+\d+ passed \(\d+\)/);
  }, 120_000);

  it("passes ./dev lint's checks unchanged: Biome's lint rules and formatter, image tag = version", async () => {
    // The repository's biome.json, as `./dev lint` (biome ci) applies it; .gitignore would hide .cache/.
    const biome = join(REPO_ROOT, "node_modules", ".bin", "biome");
    const args = ["ci", "--error-on-warnings", "--colors=off", "--vcs-use-ignore-file=false", relative(REPO_ROOT, dir)];
    const lint = spawnSync(biome, args, { cwd: REPO_ROOT, encoding: "utf8" });
    expect(lint.status, `${lint.stdout}${lint.stderr}`).toBe(0);
    expect(`${lint.stdout}${lint.stderr}`).toMatch(/Checked \d+ files/);
    const { tagProblems } = (await import(join(REPO_ROOT, "scripts", "version.mjs"))) as { tagProblems(dirs: string[]): string[] };
    expect(tagProblems([dir])).toEqual([]);
  });

  it("leaves registry/ up to date as ./dev new writes it (selu-registry check passes)", async () => {
    const lines: string[] = [];
    const output = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    expect(await runRegistryCli(["build", "--root", root], output), lines.join("\n")).toBe(0);
    expect(await runRegistryCli(["check", "--root", root], output), lines.join("\n")).toBe(0);
  });

  it("passes the registry's checks: agent package, German strings, README", async () => {
    const build = await buildRegistry(root);
    expect(build.germanProblems).toEqual([]);
    const source = await loadCapabilitySource(dir);
    expect(checkReadme(source.readme, source.manifest, source.tools)).toEqual([]);
    expect(build.agents[0]!.pkg.files.map((f) => f.path)).toContain(`capabilities/${id}/prompt.de.md`);
  });
});
