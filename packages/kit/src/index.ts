// The public API of @selu-catalogue/kit: everything exported here is supported; nothing else is.
// Outbound HTTP and proxy tunnels live on the "@selu-catalogue/kit/egress" subpath.
export { defineCapability, neededCredentials } from "./capability.js";
export { tool } from "./define.js";
export { attachments } from "./artifacts/attachments.js";
export { ArtifactStore, ArtifactWriter } from "./artifacts/store.js";
export { ToolError, isAbortError } from "./errors.js";
export { DEFAULT_DISCOVERY_TOOL } from "./discovery/dynamic-tools.js";
export { advertiseAs, toolJsonSchema } from "./json-schema.js";
export { ARTIFACT_CHUNK_BYTES, DEFAULT_LIMITS, MAX_MESSAGE_BYTES, formatBytes } from "./limits.js";
export { MAX_RESULT_BYTES, SHORTENED_MARKER, cutToJsonBytes, itemsWithin, jsonBytes, shortenString } from "./limits/result-bound.js";
export { createJsonLogger, parseLogLevel, silentLogger } from "./log.js";
export { invokeTool } from "./runtime/invoke.js";
export { Runtime, ShutdownError } from "./runtime/runtime.js";
export { SERVER_OPTIONS, serve } from "./serve.js";
export { formatIssues, formatPath } from "./validation.js";

export type { Capability, CapabilitySpec } from "./capability.js";
export type { CapabilityDescription, CredentialDescription, ToolDescription } from "./description.js";
export type {
  CredentialSpec,
  CredentialSpecs,
  CredentialValues,
  InputSchema,
  Policy,
  ToolContext,
  ToolDefinition,
  ToolHelpers,
  ToolOutput,
  ToolResult,
  ToolSpec,
} from "./define.js";
export type { Discovery, DiscoveryConfig, DiscoverySpec, SystemCredentialName } from "./discovery/dynamic-tools.js";
export type { ArtifactAccess, ArtifactContent, ArtifactRef, AttachmentArg, InputFile } from "./artifacts/access.js";
export type { AttachmentsOptions } from "./artifacts/attachments.js";
export type { ArtifactKind, ArtifactStoreOptions, StoredArtifact } from "./artifacts/store.js";
export type { CallLimits, LimitOverrides, Limits } from "./limits.js";
export type { JsonBounds } from "./limits/json-bounds.js";
export type { CallSlots, Release } from "./limits/work-slots.js";
export type { FitResult } from "./limits/result-bound.js";
export type { JsonLoggerOptions, LogFields, Logger, LogLevel } from "./log.js";
export type { InvokeInput, InvokeOptions, InvokeOutcome } from "./runtime/invoke.js";
export type { RuntimeOptions } from "./runtime/runtime.js";
export type { Egress, EgressSettings, TunnelRequest } from "./runtime/egress.js";
export type { HttpClient } from "./egress/http-types.js";
export type { ServedCapability, ServeOptions } from "./serve.js";
