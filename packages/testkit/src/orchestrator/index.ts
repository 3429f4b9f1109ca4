export { ArtifactVault, ARTIFACT_TTL_MS } from "./artifact-vault.js";
export { Orchestrator } from "./orchestrator.js";
export { threadedApprovalPrompt } from "./approval-prompt.js";
export { formatTranscriptEntry } from "./format-transcript.js";
export { checkSeluSchema } from "./schema-check.js";
export { JsonFloat, parseSeluJson, stringifySeluJson } from "./selu-json.js";
export { SeluFinding } from "./result-size.js";
export { parseDiscoveryPayload } from "./discovery.js";
export { SHARED_SLOT_WAIT_MS } from "./slots.js";
export { TOOL_RESULT_LIMIT_BYTES, TRUNCATION_MARKER } from "./selu-wording.js";
// The raw RPCs as Selu makes them (16 MiB channel, 120 s timer until the response headers and no
// grpc-timeout header, 256 KiB upload chunks), for tests that need what the Orchestrator hides: a short
// timer, a cancelled call, a chunk-level view.
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
export type { ApprovalPromptInput, ApprovalStrings } from "./approval-prompt.js";
export type { VaultArtifact } from "./artifact-vault.js";
export type { DiscoveredTool } from "./discovery.js";
export type { BatchCall, OrchestratorOptions } from "./orchestrator.js";
export type {
  ArtifactSummary,
  CallerContext,
  CallOutcome,
  ContainerRequest,
  ContainerStarter,
  ManifestView,
  StartedContainer,
  TranscriptEntry,
  UserReply,
} from "./types.js";
