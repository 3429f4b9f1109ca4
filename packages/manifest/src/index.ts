// The public API of @selu-catalogue/manifest: everything exported here is supported; nothing else is.
// manifest.yaml as Selu parses it (reporting what Selu ignores or skips silently), checked against and
// written from a capability's code. The selu-manifest command is the package's bin (dist/bin.js).
export { checkCatalogueRules } from "./catalogue-rules.js";
export { checkManifestAgainstCode } from "./compare.js";
export {
  capabilityDescriptionSchema,
  credentialDescriptionSchema,
  networkDescriptionSchema,
  policySchema,
  resourcesDescriptionSchema,
  toolDescriptionSchema,
} from "./description.js";
export { main as runCli, USAGE } from "./cli.js";
export { checkHostEntry } from "./host-entry.js";
export { checkInputSchema } from "./input-schema.js";
export { firstDifference } from "./json-diff.js";
export { CAPABILITY_MODULE, loadCodeDescription } from "./load-description.js";
export { checkManifestRules } from "./manifest-rules.js";
export {
  manifestCacheSchema,
  manifestCredentialSchema,
  manifestNetworkSchema,
  manifestResourcesSchema,
  manifestSchema,
  manifestSharingSchema,
  manifestToolSchema,
} from "./manifest-schema.js";
export { checkIntegerFields } from "./integer-fields.js";
export {
  CATALOGUE_ID_PREFIX,
  FIRST_PARTY_CAPABILITY_IDS,
  MAX_QUALIFIED_TOOL_NAME,
  checkCapabilityId,
  checkCatalogueId,
  checkCredentialName,
  checkImageReference,
  checkQualifiedToolName,
  checkToolName,
} from "./names.js";
export { loadManifest, parseManifest } from "./parse.js";
export { formatKeyPath } from "./problem.js";
export { findUnknownKeys } from "./unknown-keys.js";
export { GENERATED_NOTE, writeManifestTools } from "./write-tools.js";

export type { CliOutput } from "./cli.js";
export type {
  CapabilityDescription,
  CredentialDescription,
  NetworkDescription,
  Policy,
  ResourcesDescription,
  ToolDescription,
} from "./description.js";
export type { JsonDifference } from "./json-diff.js";
export type { Manifest, ManifestCredential, ManifestTool } from "./manifest-schema.js";
export type { ParseResult } from "./parse.js";
export type { KeyPath, ManifestProblem, ProblemKind } from "./problem.js";
