/** The parts of a parsed manifest.yaml the orchestrator double reads (as @selu-catalogue/manifest gives them). */
export interface ManifestView {
  id: string;
  tool_source?: "manifest" | "dynamic";
  discovery_tool_name?: string;
  tools: ReadonlyArray<{ name: string; description?: string; input_schema: unknown; recommended_policy?: string; terminal_on_success?: boolean }>;
  credentials: ReadonlyArray<{ name: string; scope: "user" | "system"; required?: boolean }>;
  /** `sharing` of the manifest; absent means exclusive. */
  sharing?: { mode?: "exclusive" | "shared"; max_concurrent?: number };
}

/** What Selu's runner is asked to start: one container of a capability, with the environment Selu sets. */
export interface ContainerRequest {
  capabilityId: string;
  /** The session of an exclusive (or discovery) container; undefined for a shared one. */
  sessionId: string | undefined;
  shared: boolean;
  /** `SELU_CAPABILITY_ID` and `SELU_SESSION_ID` or `SELU_SHARED=true`; add the proxy variables yourself. */
  env: Record<string, string>;
}

/** A started container: where it serves gRPC, and how to remove it (Selu removes by force). */
export interface StartedContainer {
  address: string;
  stop(): Promise<unknown>;
}

/** Starts a container on demand, as Selu's runner does; lets the double model shared, exclusive and discovery containers. */
export type ContainerStarter = (request: ContainerRequest) => Promise<StartedContainer>;

/** An artifact as the user's reply carries it, and as the model sees it after the rewrite. */
export interface ArtifactSummary {
  artifact_id: string;
  filename: string;
  mime_type: string;
  size_bytes: number;
}

/** The user's final reply when a terminal tool ended the turn: its text verbatim, every artifact of the turn attached. */
export interface UserReply {
  text: string;
  attachments: ArtifactSummary[];
}

/** Who is calling, as Selu knows it. */
export interface CallerContext {
  /** Owner of artifacts; another user's artifact ids are "not found". Default "user-1". */
  user?: string;
  /** Session UUID (default: one per orchestrator). */
  session?: string;
  /** Thread id, "" by default. */
  thread?: string;
}

/** One step in the transcript, in the order the orchestrator took it. */
export type TranscriptEntry =
  | { kind: "call"; tool: string; args: unknown }
  | { kind: "upload"; tool: string; artifactId: string; capabilityArtifactId: string; filename: string; mimeType: string; sizeBytes: number; chunks: number }
  | { kind: "invoke"; tool: string; capabilityId: string; toolName: string; args: unknown; config: Record<string, string> }
  | { kind: "raw-result"; tool: string; result: unknown }
  | { kind: "download"; tool: string; capabilityArtifactId: string; artifactId: string; filename: string; mimeType: string; sizeBytes: number; chunks: number }
  | { kind: "result"; tool: string; result: unknown; text: string }
  | { kind: "error"; tool: string; error: string; stage: "orchestrator" | "capability" }
  | { kind: "reply"; tool: string; text: string; attachments: ArtifactSummary[] }
  | { kind: "finding"; tool: string; finding: string };

/**
 * What a call gives back. `text` / `error` is exactly what the model sees (`error` in Selu's words, e.g.
 * `Tool error: Capability 'pdf' tool 'merge_pdfs' returned error: …`). When the tool is
 * `terminal_on_success` (and alone in its batch), the model sees nothing: `reply` is what the user reads
 * and the turn is over. `result` is `text` parsed when it is a JSON object, else `{ result: <value or text> }`.
 * `capabilityError` is the capability's own `InvokeResponse.error`, when that is what failed (for tests
 * that check a capability's wording without Selu's prefix).
 */
export type CallOutcome = { ok: true; result: Record<string, unknown>; text: string; reply?: UserReply } | { ok: false; error: string; capabilityError?: string; reply?: UserReply };
