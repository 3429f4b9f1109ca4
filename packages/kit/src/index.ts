// The public API of @selu-catalogue/kit: everything exported here is supported; nothing else is. It holds
// what capabilities, the testkit and tests use (issue 11, item 5); the rest stays internal.
// Outbound HTTP and proxy tunnels live on the "@selu-catalogue/kit/egress" subpath.
export { defineCapability } from "./capability.js";
export { tool } from "./tool.js";
export { attachments } from "./artifacts/attachments.js";
export { displayName, toolDisplayNames, wordCasing } from "./display-name.js";
export { ToolError, errorMessage, isAbortError } from "./errors.js";
export { formatBytes, formatCount, formatIsoTime, sliceWhole } from "./format.js";
export { ownMemory } from "./own-memory.js";
export { MAX_RESULT_BYTES, cutToJsonBytes, itemsWithin, jsonBytes, shortenString } from "./limits/result-bound.js";
export { quotedKeys } from "./validation.js";
export { silentLogger } from "./log.js";
export { invokeTool } from "./runtime/invoke.js";
export { Runtime } from "./runtime/runtime.js";
export { serve } from "./serve.js";
export { installStandIns } from "./stand-ins.js";

export type { Capability, CapabilitySpec } from "./capability.js";
export type { CapabilityDescription, CredentialDescription, Policy, ToolDescription } from "./description.js";
export type { InputSchema, ToolDefinition, ToolHelpers, ToolOutput, ToolResult, ToolSpec } from "./tool.js";
export type { CredentialSpec, CredentialSpecs, CredentialValues, OpenTunnel, ToolContext } from "./tool-context.js";
export type { DiscoveryConfig, DiscoverySpec } from "./discovery/dynamic-tools.js";
export type { ArtifactAccess, ArtifactContent, ArtifactRef, AttachmentArg, InputFile } from "./artifacts/access.js";
export type { AttachmentsOptions } from "./artifacts/attachments.js";
export type { CallLimits, LimitOverrides, Limits } from "./limits.js";
export type { JsonBounds } from "./limits/json-bounds.js";
export type { CallSlots } from "./limits/work-slots.js";
export type { FitResult } from "./limits/result-bound.js";
export type { LogFields, Logger, LogLevel } from "./log.js";
export type { InvokeInput, InvokeOptions, InvokeOutcome } from "./runtime/invoke.js";
export type { RuntimeOptions } from "./runtime/runtime.js";
export type { Egress, EgressSettings, TunnelRequest } from "./egress/outbound.js";
export type { HttpClient } from "./egress/http-types.js";
export type { ServedCapability, ServeOptions } from "./serve-options.js";
