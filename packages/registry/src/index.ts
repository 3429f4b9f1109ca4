// The public API of @selu-catalogue/registry: everything exported here is supported; nothing else is.
// Agent packages, Selu's marketplace index and reproducible archives, the catalogue index and the JSON
// Schemas, all from capabilities/*/; the selu-registry command is the package's bin.
export { buildAgentPackage, LOCALES } from "./agent-package.js";
export { buildRegistry, DEFAULT_AUTHOR, marketplaceIndex, REGISTRY_FILES, writeMarketplace, writeRegistryFolder } from "./build.js";
export { discoverCapabilities, GERMAN_SOURCE, loadCapabilitySource } from "./capability-source.js";
export { catalogueEntrySchema, catalogueJsonSchema, catalogueSchema, DISCOVERED_AT_RUN_TIME, manifestJsonSchema } from "./catalogue.js";
export { checkAgentPackage } from "./check-package.js";
export { main as runCli, USAGE } from "./cli.js";
export { englishStrings } from "./english.js";
export { extractTarGz, MAX_EXTRACTED_BYTES } from "./extract.js";
export { germanProblems, localizeStrings } from "./localize.js";
export { checkReadme } from "./readme-check.js";
export { scaffoldCapability } from "./scaffold/scaffold.js";
export { agentYamlSchema, localeBundleSchema, marketplaceEntrySchema, marketplaceSchema } from "./selu-schemas.js";
export { agentStringsSchema, germanSourceSchema } from "./strings-schema.js";
export { ARCHIVE_MTIME, gzip, writeTar, writeTarGz } from "./tar.js";

export type { AgentPackage, Locale } from "./agent-package.js";
export type { BuiltAgent, RegistryBuild } from "./build.js";
export type { CapabilitySource } from "./capability-source.js";
export type { Catalogue, CatalogueEntry } from "./catalogue.js";
export type { LoadedAgent } from "./check-package.js";
export type { CliOutput } from "./cli.js";
export type { TranslationReport } from "./localize.js";
export type { AgentYaml, InstallStep, LocaleBundle, Marketplace, MarketplaceEntry } from "./selu-schemas.js";
export type { AgentStrings, PartialAgentStrings } from "./strings-schema.js";
export type { ArchiveFile } from "./tar.js";
