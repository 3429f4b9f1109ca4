import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildRegistry, REGISTRY_FILES, writeMarketplace, writeRegistryFolder } from "./build.js";
import { scaffoldCapability } from "./scaffold/scaffold.js";

/** Where the CLI writes: results to `out`, problems and hints to `err`. */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

/** The help text. */
export const USAGE = `usage: selu-registry build [--out DIR --base-url URL]
       selu-registry check
       selu-registry new <id>

  build  regenerate registry/ (catalogue.json and the JSON Schemas) from capabilities/*/; with --out,
         also write DIR/marketplace.json and the agent archives it names, served from URL
  check  fail when registry/ is stale or a capability's German strings are incomplete
  new    scaffold capabilities/<id>/ (lowercase letters, digits, hyphens)

options may follow a "--" (pnpm run registry:build -- --out DIR ...)
exit status: 0 OK, 1 problems found, 2 usage error`;

/** Runs `selu-registry` with `argv` (without node and the script); returns the exit status. */
export async function main(argv: readonly string[], output: CliOutput, cwd = process.cwd()): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      // pnpm passes a literal "--" through to the script: options after it are still options.
      args: argv.filter((a) => a !== "--"),
      allowPositionals: true,
      options: { out: { type: "string" }, "base-url": { type: "string" }, root: { type: "string" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    output.err(`selu-registry: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    output.out(USAGE);
    return 0;
  }
  const [command, ...rest] = positionals;
  try {
    const root = values.root ? resolve(values.root) : findRoot(cwd);
    if (command === "build" && rest.length === 0) return await build(root, values.out, values["base-url"], output);
    if (command === "check" && rest.length === 0) return await check(root, output);
    if (command === "new" && rest.length === 1) {
      const created = scaffoldCapability(root, rest[0]!);
      for (const file of created) output.out(`created ${file}`);
      return 0;
    }
  } catch (error) {
    output.err(`selu-registry: ${(error as Error).message}`);
    return 1;
  }
  output.err(USAGE);
  return 2;
}

async function build(root: string, out: string | undefined, baseUrl: string | undefined, output: CliOutput): Promise<number> {
  if ((out === undefined) !== (baseUrl === undefined)) {
    output.err(`selu-registry: --out and --base-url go together (the index names each archive by its URL)\n${USAGE}`);
    return 2;
  }
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl)) {
    output.err(`selu-registry: --base-url "${baseUrl}": expected an http(s) URL the archives will be served from`);
    return 2;
  }
  const result = await buildRegistry(root);
  writeRegistryFolder(result, root);
  output.out(`registry/: ${result.agents.length} capabilities`);
  if (out !== undefined && baseUrl !== undefined) {
    // pnpm runs root scripts in the root; INIT_CWD is where the user typed the command.
    for (const file of writeMarketplace(result, resolve(process.env.INIT_CWD ?? process.cwd(), out), baseUrl)) output.out(`wrote ${file}`);
  }
  for (const problem of result.germanProblems) output.err(`warning: ${problem}`);
  return 0;
}

async function check(root: string, output: CliOutput): Promise<number> {
  const result = await buildRegistry(root);
  let ok = true;
  for (const name of REGISTRY_FILES) {
    const file = join(root, "registry", name);
    if (!existsSync(file) || readFileSync(file, "utf8") !== result.registry[name]) {
      output.out(`registry/${name}: stale; run \`./dev registry:build\` and commit the result`);
      ok = false;
    }
  }
  for (const problem of result.germanProblems) {
    output.out(problem);
    ok = false;
  }
  if (ok) output.out(`registry: ${result.agents.length} capabilities OK`);
  return ok ? 0 : 1;
}

function findRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "pnpm-workspace.yaml"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no pnpm-workspace.yaml above ${from}; pass --root`);
  }
}
