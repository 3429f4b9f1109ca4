export { ArtifactVault, ARTIFACT_TTL_MS } from "./artifact-vault.js";
export { Orchestrator } from "./orchestrator.js";
export { formatTranscriptEntry } from "./format-transcript.js";
export { checkSeluSchema } from "./schema-check.js";
export type { VaultArtifact } from "./artifact-vault.js";
export type { OrchestratorOptions } from "./orchestrator.js";
export type { CallerContext, CallOutcome, ManifestView, TranscriptEntry } from "./types.js";
