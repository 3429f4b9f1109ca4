import { readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { checkManifestAgainstCode } from "./compare.js";
import type { CapabilityDescription } from "./description.js";
import { loadCodeDescription } from "./load-description.js";
import { locatorFor, withLines } from "./locate.js";
import { parseManifest } from "./parse.js";
import { type ManifestProblem, problem } from "./problem.js";
import { writeManifestTools } from "./write-tools.js";

/** Where the CLI writes: report lines to `out`, usage and hints to `err`. Tests pass collectors. */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

/** The help text, printed for --help and after a usage error. */
export const USAGE = `usage: selu-manifest check <capability-dir>...
       selu-manifest write <capability-dir>...

  check  report, one line each, every problem in <dir>/manifest.yaml: YAML errors, unknown keys (which
         Selu ignores silently), rule violations, an id other than the directory name, and drift from
         the code's describe() in <dir>/dist/capability.js
  write  regenerate tools and credentials in <dir>/manifest.yaml from the code, then check

exit status: 0 when every manifest is OK, 1 when any has problems, 2 on a usage error`;

/**
 * Runs `selu-manifest` with `argv` (without node and the script) and returns the exit status. Takes its
 * output channels as a parameter so it runs in-process in tests; bin.ts wires it to the console.
 */
export async function main(argv: readonly string[], output: CliOutput): Promise<number> {
  let parsed: ReturnType<typeof parseArguments>;
  try {
    parsed = parseArguments(argv);
  } catch (error) {
    output.err(`selu-manifest: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    output.out(USAGE);
    return 0;
  }
  const [command, ...dirs] = parsed.positionals;
  if ((command !== "check" && command !== "write") || dirs.length === 0) {
    output.err(command === undefined || command === "check" || command === "write" ? USAGE : `selu-manifest: unknown command "${command}"\n${USAGE}`);
    return 2;
  }
  let ok = true;
  for (const dir of dirs) ok = (await runOne(command, dir, output)) && ok;
  return ok ? 0 : 1;
}

function parseArguments(argv: readonly string[]) {
  return parseArgs({ args: [...argv], allowPositionals: true, options: { help: { type: "boolean", short: "h" } } });
}

async function runOne(command: "check" | "write", dir: string, output: CliOutput): Promise<boolean> {
  const file = join(dir, "manifest.yaml");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    output.out(`${file}: cannot be read: ${(error as Error).message}`);
    return false;
  }
  let code: CapabilityDescription | undefined;
  try {
    code = await loadCodeDescription(dir);
  } catch (error) {
    output.out((error as Error).message);
  }
  if (command === "write" && code) {
    try {
      const written = writeManifestTools(text, code);
      if (written !== text) {
        writeFileSync(file, written);
        output.out(`${file}: wrote tools and credentials from the code`);
      }
      text = written;
    } catch (error) {
      output.out(`${file}: ${(error as Error).message}`);
      return false;
    }
  }
  const problems = checkText(text, dir, code);
  for (const p of problems) output.out(`${file}${p.line === undefined ? "" : `:${p.line}`}: ${p.path}: ${p.message}`);
  if (problems.some((p) => p.kind === "drift")) output.err(`hint: run \`selu-manifest write ${dir}\` to regenerate tools and credentials from the code`);
  if (problems.length === 0 && code) output.out(`${file}: OK`);
  return problems.length === 0 && code !== undefined;
}

/** Every problem: the manifest's own, its id against the directory name, and drift from the code. */
function checkText(text: string, dir: string, code: CapabilityDescription | undefined): ManifestProblem[] {
  const { manifest, problems } = parseManifest(text);
  if (!manifest) return problems;
  const extra: ManifestProblem[] = [];
  // The catalogue's convention: a capability's id is its directory name.
  const dirName = basename(resolve(dir));
  if (manifest.id !== dirName) extra.push(problem("rule", ["id"], `is "${manifest.id}": expected the directory name "${dirName}"`));
  if (code) extra.push(...checkManifestAgainstCode(manifest, code));
  return withLines([...problems, ...extra], locatorFor(text));
}
