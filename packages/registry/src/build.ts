import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentPackage, buildAgentPackage } from "./agent-package.js";
import { type CapabilitySource, discoverCapabilities, loadCapabilitySource } from "./capability-source.js";
import { type Catalogue, catalogueEntry, catalogueJsonSchema, manifestJsonSchema } from "./catalogue.js";
import { checkAgentPackage } from "./check-package.js";
import { germanProblems } from "./localize.js";
import type { Marketplace, MarketplaceEntry } from "./selu-schemas.js";
import { writeTarGz } from "./tar.js";

/** Who the marketplace names as author when a capability's package.json has no `author`. */
export const DEFAULT_AUTHOR = "Selu capability catalogue contributors";

/** The files of the committed `registry/` folder, by name. */
export const REGISTRY_FILES = ["catalogue.json", "catalogue.schema.json", "manifest.schema.json"] as const;

/** One capability, built: its sources, agent package and archive. */
export interface BuiltAgent {
  source: CapabilitySource;
  pkg: AgentPackage;
  archiveName: string;
  archive: Buffer;
  sha256: string;
}

/** Everything the registry build makes, in memory. */
export interface RegistryBuild {
  agents: BuiltAgent[];
  /** `registry/` files by name ({@link REGISTRY_FILES}), as they should be committed. */
  registry: Record<(typeof REGISTRY_FILES)[number], string>;
  /** Capabilities whose German strings are incomplete (what the German check reports). */
  germanProblems: string[];
}

/**
 * Builds every capability under `root` into an agent package and a reproducible archive, checks each
 * package as Selu's loader would (so a broken i18n file fails here, not in someone's Selu), and derives
 * the catalogue index and the JSON Schemas. Writes nothing; see {@link writeMarketplace}.
 *
 * @throws Error listing every problem of every capability that Selu would refuse or misread.
 */
export async function buildRegistry(root: string): Promise<RegistryBuild> {
  const problems: string[] = [];
  const agents: BuiltAgent[] = [];
  const german: string[] = [];
  const ids = new Map<string, string>();
  for (const dir of discoverCapabilities(root)) {
    let source: CapabilitySource;
    try {
      source = await loadCapabilitySource(dir);
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    const other = ids.get(source.manifest.id);
    if (other) problems.push(`${dir}: id "${source.manifest.id}" is also the id of ${other}; Selu keys credentials and containers by id`);
    ids.set(source.manifest.id, dir);
    const pkg = buildAgentPackage(source);
    const found = checkAgentPackage(new Map(pkg.files.map((f) => [f.path, f.bytes])), new Map([[source.manifest.id, source.tools]])).problems;
    problems.push(...found.map((p) => `${dir} (agent package): ${p}`));
    const germanProblem = germanProblems(source, pkg.german);
    if (germanProblem) german.push(germanProblem);
    const archiveName = `${pkg.id}-${pkg.version}.tar.gz`;
    const archive = writeTarGz(`${pkg.id}-${pkg.version}`, pkg.files);
    agents.push({ source, pkg, archiveName, archive, sha256: createHash("sha256").update(archive).digest("hex") });
  }
  if (problems.length > 0) throw new Error(`registry: ${problems.length} problem(s):\n${problems.join("\n")}`);
  const catalogue: Catalogue = { $schema: "./catalogue.schema.json", version: 1, capabilities: agents.map((a) => catalogueEntry(a.source, a.pkg)) };
  return {
    agents,
    germanProblems: german,
    registry: {
      "catalogue.json": json(catalogue),
      "catalogue.schema.json": json(catalogueJsonSchema()),
      "manifest.schema.json": json(manifestJsonSchema()),
    },
  };
}

/** Selu's marketplace index for `agents`, with archives served under `baseUrl`. */
export function marketplaceIndex(agents: readonly BuiltAgent[], baseUrl: string): Marketplace {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    version: 1,
    agents: agents.map(
      ({ pkg, archiveName, sha256 }): MarketplaceEntry => ({
        id: pkg.id,
        name: pkg.strings.en.agent.name,
        description: pkg.strings.en.agent.description,
        version: pkg.version,
        author: DEFAULT_AUTHOR,
        archive_url: `${base}/${encodeURIComponent(archiveName)}`,
        archive_sha256: sha256,
        capability_images: [pkg.image],
        name_localizations: { en: pkg.strings.en.agent.name, de: pkg.strings.de.agent.name },
        description_localizations: { en: pkg.strings.en.agent.description, de: pkg.strings.de.agent.description },
      }),
    ),
  };
}

/** Writes `out/marketplace.json` and every archive it names; returns the paths written. */
export function writeMarketplace(build: RegistryBuild, out: string, baseUrl: string): string[] {
  mkdirSync(out, { recursive: true });
  const written: string[] = [];
  for (const agent of build.agents) {
    writeFileSync(join(out, agent.archiveName), agent.archive);
    written.push(join(out, agent.archiveName));
  }
  writeFileSync(join(out, "marketplace.json"), json(marketplaceIndex(build.agents, baseUrl)));
  written.push(join(out, "marketplace.json"));
  return written;
}

/** Writes the committed `registry/` folder under `root`. */
export function writeRegistryFolder(build: RegistryBuild, root: string): void {
  mkdirSync(join(root, "registry"), { recursive: true });
  for (const name of REGISTRY_FILES) writeFileSync(join(root, "registry", name), build.registry[name]);
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
