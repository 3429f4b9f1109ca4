import type { ServiceError } from "@grpc/grpc-js";

// The texts Selu's orchestrator (crates/selu-orchestrator, commit 68b1b8f) gives the model or the user,
// word for word, so a test reads what a person would read.

/** Selu cuts any tool result longer than this many UTF-8 bytes (contract section 2). */
export const TOOL_RESULT_LIMIT_BYTES = 49_152;
/** What Selu appends to a result it cut. */
export const TRUNCATION_MARKER = "\n\n[… truncated to fit context window]";

/** Every failure inside a dispatched call reaches the model (or, for a terminal tool, the user) this way. */
export const toolError = (message: string): string => `Tool error: ${message}`;

/** `InvokeResponse.error` non-empty. */
export const capabilityReturnedError = (capabilityId: string, tool: string, error: string): string => `Capability '${capabilityId}' tool '${tool}' returned error: ${error}`;

export const NON_UTF8_RESULT = "Capability returned non-UTF8 result_json";

/** A gRPC status on `rpc` (`invoke`, `upload_input_artifact`, `download_output_artifact`), as tonic 0.13 prints it. */
export function grpcFailed(rpc: "invoke" | "upload_input_artifact" | "download_output_artifact", err: ServiceError): string {
  const message = err.details ? `, self: ${JSON.stringify(err.details)}` : "";
  return `gRPC ${rpc} failed: status: '${CODE_DESCRIPTIONS[err.code] ?? "Unknown error"}'${message}`;
}

/** The tool loop's answer to arguments that fail the schema subset; not dispatched, never terminal. */
export const validationFailed = (qualifiedTool: string, problem: string): string =>
  `Tool argument validation failed for '${qualifiedTool}': ${problem}. Regenerate this tool call with a valid argument shape.`;

/**
 * A tool with no policy, which is what a name the model made up has: Selu answers before dispatch
 * (`check_policy_and_dispatch`, implicit block).
 */
export const notConfigured = (qualifiedTool: string): string => `The tool '${qualifiedTool}' is not configured in your security policy. Ask the user to update their tool permissions for this agent.`;

/** A required user-scoped credential is unset: the user is told how to set it. */
export const missingUserCredential = (capabilityId: string, name: string): string =>
  `I need your ${name} for ${capabilityId} before I can do this. Please set it with: /set-credential ${capabilityId} ${name} <value>`;

/** A required system-scoped credential is unset: an admin error. */
export const missingSystemCredential = (capabilityId: string, name: string): string =>
  `System credential '${name}' for capability '${capabilityId}' is not configured. An administrator must set it via the credentials API.`;

export const sharedSlotTimedOut = (capabilityId: string): string => `Shared capability '${capabilityId}' is at max concurrency — timed out waiting for a slot`;

export const attachmentNotFound = (artifactId: string): string => `Attachment artifact not found or expired: ${artifactId}`;
export const attachmentInline = (index: number): string => `attachments[${index}] contains inline data_base64, which is no longer supported`;
export const uploadFailed = (error: string): string => `Capability artifact upload failed: ${error}`;
export const EMPTY_UPLOAD_ID = "Capability returned empty capability_artifact_id";
export const resultInline = "Capability returned inline artifact data_base64, which is no longer supported";
export const downloadFailed = (error: string): string => `Capability artifact stream failed: ${error}`;
export const EMPTY_ARTIFACT = "Artifact payload is empty";

/** Discovery's own errors (capabilities/discovery.rs). */
export const discoveryWording = {
  missingSystemCredential: (capabilityId: string, name: string) => `Missing required system credential '${name}' for capability '${capabilityId}'`,
  invalidJson: "Discovery tool returned invalid JSON payload",
  notArray: "Discovery payload must be a JSON array of tools",
  invalidItem: (why: string) => `Discovery payload item is invalid: ${why}`,
  emptyName: "Discovery tool contains an empty tool name",
  duplicate: (name: string) => `Discovery payload contains duplicate tool name '${name}'`,
};

const CODE_DESCRIPTIONS: Record<number, string> = {
  0: "The operation completed successfully",
  1: "The operation was cancelled",
  2: "Unknown error",
  3: "Client specified an invalid argument",
  4: "Deadline expired before operation could complete",
  5: "Some requested entity was not found",
  6: "Some entity that we attempted to create already exists",
  7: "The caller does not have permission to execute the specified operation",
  8: "Some resource has been exhausted",
  9: "The system is not in a state required for the operation's execution",
  10: "The operation was aborted",
  11: "Operation was attempted past the valid range",
  12: "Operation is not implemented or not supported",
  13: "Internal error",
  14: "The service is currently unavailable",
  15: "Unrecoverable data loss or corruption",
  16: "The request does not have valid authentication credentials",
};
