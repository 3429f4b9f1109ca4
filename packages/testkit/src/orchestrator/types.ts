/** The parts of a parsed manifest.yaml the orchestrator double reads (as @selu-catalogue/manifest gives them). */
export interface ManifestView {
  id: string;
  tool_source?: "manifest" | "dynamic";
  discovery_tool_name?: string;
  tools: ReadonlyArray<{ name: string; description?: string; input_schema: unknown; recommended_policy?: string }>;
  credentials: ReadonlyArray<{ name: string; scope: "user" | "system"; required?: boolean }>;
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
  | { kind: "result"; tool: string; result: unknown }
  | { kind: "error"; tool: string; error: string; stage: "orchestrator" | "capability" }
  | { kind: "finding"; tool: string; finding: string };

/** What a call gives back: the rewritten result the model sees, or the error it sees. */
export type CallOutcome = { ok: true; result: Record<string, unknown> } | { ok: false; error: string };
