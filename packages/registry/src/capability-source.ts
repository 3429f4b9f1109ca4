import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkQualifiedToolName, checkToolName, loadCodeDescription, type Manifest, parseManifest, type ToolDescription } from "@selu-catalogue/manifest";
import { parse } from "yaml";
import { type AgentStrings, germanSourceSchema, type PartialAgentStrings } from "./strings-schema.js";

/** Where a capability keeps its hand-written German strings, relative to its directory. */
export const GERMAN_SOURCE = join("agent", "de.yaml");

/** Everything the registry reads from one `capabilities/<dir>/`: nothing here is written twice. */
export interface CapabilitySource {
  /** Absolute path of the capability's directory. */
  dir: string;
  /** The directory's name (the catalogue's convention: equal to the manifest id). */
  dirName: string;
  manifest: Manifest;
  /**
   * Every tool the capability can have: the manifest's, or for `tool_source: dynamic` (whose manifest
   * lists none) every tool its code may offer in any configuration, from `describe()` of the built code.
   * Selu's UI shows i18n strings for discovered tools too, so each needs them.
   */
  tools: readonly ToolDescription[];
  /** manifest.yaml as committed, copied into the agent package byte for byte. */
  manifestText: string;
  /** From package.json: the version every artifact of a release carries, and the one-line summary. */
  version: string;
  description: string;
  /** package.json `displayName`: the agent's English name (default: the directory name, humanised). */
  displayName: string | undefined;
  /** package.json `scripts.start`: the image's CMD (the production entrypoint with its node flags). */
  start: string | undefined;
  readme: string;
  prompt: string;
  promptDe: string | undefined;
  /** `agent/de.yaml`, or undefined when the capability has none. */
  german: PartialAgentStrings | undefined;
}

/**
 * Finds every capability: each `capabilities/<dir>/manifest.yaml` under `root`, in name order. Nothing
 * lists capabilities by hand, so a new one is picked up by every generator and check at once.
 */
export function discoverCapabilities(root: string): string[] {
  const base = join(root, "capabilities");
  if (!existsSync(base)) return [];
  return readdirSync(base, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(base, e.name, "manifest.yaml")))
    .map((e) => join(base, e.name))
    .sort();
}

/**
 * Reads one capability's sources. A manifest Selu would skip or misread is an error here, with every
 * problem and its line, since a registry entry built from it would install nothing usable.
 *
 * @throws Error naming the file for a manifest with problems, a package.json without a version or
 * description, a missing prompt.md or README.md, an `agent/de.yaml` of the wrong shape, or a dynamic
 * capability that is not built or whose code describes no tools.
 */
export async function loadCapabilitySource(dir: string): Promise<CapabilitySource> {
  const dirName = dir.split(/[\\/]/).filter(Boolean).at(-1)!;
  const manifestText = readFileSync(join(dir, "manifest.yaml"), "utf8");
  const { manifest, problems } = parseManifest(manifestText);
  if (!manifest || problems.length > 0) {
    const lines = problems.map((p) => `  ${join(dir, "manifest.yaml")}${p.line === undefined ? "" : `:${p.line}`}: ${p.path}: ${p.message}`);
    throw new Error(`${join(dir, "manifest.yaml")}: Selu would not load it as is:\n${lines.join("\n")}`);
  }
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: unknown; description?: unknown; displayName?: unknown; scripts?: { start?: unknown } };
  if (typeof pkg.version !== "string" || typeof pkg.description !== "string" || pkg.description.trim() === "") {
    throw new Error(`${join(dir, "package.json")}: expected a "version" and a one-line "description" (the marketplace shows it)`);
  }
  // Selu compares MAJOR.MINOR.PATCH (a pre-release suffix is ignored) to offer updates.
  if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(pkg.version)) {
    throw new Error(`${join(dir, "package.json")}: version "${pkg.version}" is not MAJOR.MINOR.PATCH; Selu compares versions that way`);
  }
  return {
    dir,
    dirName,
    manifest,
    tools: manifest.tool_source === "dynamic" ? await discoverableTools(dir, manifest) : manifest.tools,
    manifestText,
    version: pkg.version,
    description: pkg.description.trim(),
    displayName: typeof pkg.displayName === "string" && pkg.displayName.trim() !== "" ? pkg.displayName.trim() : undefined,
    start: typeof pkg.scripts?.start === "string" ? pkg.scripts.start : undefined,
    readme: readRequired(join(dir, "README.md")),
    prompt: readRequired(join(dir, "prompt.md")),
    promptDe: readOptional(join(dir, "prompt.de.md")),
    german: loadGerman(join(dir, GERMAN_SOURCE)),
  };
}

// The kit refuses to offer a tool it doesn't define, so describe() lists every tool discovery can return.
async function discoverableTools(dir: string, manifest: Manifest): Promise<readonly ToolDescription[]> {
  const code = await loadCodeDescription(dir);
  if (code.id !== manifest.id) throw new Error(`${dir}: the code's id "${code.id}" is not the manifest's "${manifest.id}"`);
  if (code.tools.length === 0) throw new Error(`${dir}: tool_source is dynamic, but describe() in the built code lists no tools it may offer`);
  // The manifest's checks never see these names; Selu and the model will.
  for (const tool of code.tools) {
    const problem = checkToolName(tool.name) ?? checkQualifiedToolName(manifest.id, tool.name);
    if (problem) throw new Error(`${dir}: a tool discovery may offer: ${problem}`);
  }
  return code.tools;
}

function readRequired(file: string): string {
  if (!existsSync(file)) throw new Error(`${file}: missing; every capability has one`);
  return readFileSync(file, "utf8");
}

function readOptional(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, "utf8") : undefined;
}

function loadGerman(file: string): PartialAgentStrings | undefined {
  if (!existsSync(file)) return undefined;
  let document: unknown;
  try {
    document = parse(readFileSync(file, "utf8"), { uniqueKeys: true });
  } catch (error) {
    throw new Error(`${file}: not valid YAML: ${(error as Error).message}`, { cause: error });
  }
  const parsed = germanSourceSchema.safeParse(document ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: ${issue.path.join(".") || "(top)"}: ${issue.message}`);
  }
  return parsed.data;
}

export type { AgentStrings, PartialAgentStrings };
