// The public API of @selu-catalogue/manifest.
export { manifestSchema } from "./manifest-schema.js";
export { loadManifest, parseManifest } from "./parse.js";
export { checkManifestAgainstCode, firstDifference } from "./compare.js";
export { writeManifestTools } from "./write-tools.js";
export type { Manifest } from "./manifest-schema.js";
export type { ManifestProblem, ParseResult } from "./parse.js";
