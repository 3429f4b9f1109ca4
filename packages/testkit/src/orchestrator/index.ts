export { ArtifactVault, ARTIFACT_TTL_MS } from "./artifact-vault.js";
export { Orchestrator } from "./orchestrator.js";
export { formatTranscriptEntry } from "./format-transcript.js";
export { checkSeluSchema } from "./schema-check.js";
// The raw RPCs as Selu makes them (16 MiB channel, 120 s deadline, 256 KiB upload chunks), for tests
// that need what the Orchestrator hides: a short deadline, a cancelled call, a chunk-level view.
export {
  connect as connectCapability,
  download as downloadArtifact,
  healthcheck as checkHealth,
  invoke as invokeCapability,
  upload as uploadArtifact,
  RPC_DEADLINE_MS,
  UPLOAD_CHUNK_BYTES,
} from "./grpc-calls.js";
export type { InvokeCallOptions } from "./grpc-calls.js";
export type { VaultArtifact } from "./artifact-vault.js";
export type { OrchestratorOptions } from "./orchestrator.js";
export type { CallerContext, CallOutcome, ManifestView, TranscriptEntry } from "./types.js";
