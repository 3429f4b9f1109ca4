// Every error type the kit's core raises, and the one conversion to the text that crosses the wire
// (`InvokeResponse.error`, `UploadInputArtifactResponse.error`, `ArtifactChunk.error`), used by invoke and
// by transfers alike. Egress has its own `EgressError` (a ToolError) in egress/errors.ts.
import { randomBytes } from "node:crypto";
import { formatMs } from "./format.js";
import type { Logger } from "./log.js";

/**
 * An error whose message is meant for the caller: it crosses the wire as `InvokeResponse.error` as is.
 * Throw it from a tool for anything the user or the model can act on (bad input, a refused upstream,
 * a limit). Anything else thrown is treated as a server fault: logged with its cause, never sent.
 *
 * @example
 * throw new ToolError("attachments[0]: expected a PDF, got image/png");
 */
export class ToolError extends Error {
  override readonly name: string = "ToolError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A call's arguments are not what the tool takes (bad JSON, a schema violation): the model can fix them. */
export class ArgumentsError extends ToolError {
  override readonly name: string = "ArgumentsError";
}

/** A credential the tool needs is missing or malformed: the user must set it in Selu. */
export class CredentialsError extends ToolError {
  override readonly name: string = "CredentialsError";
}

/** The reason a call's signal aborts when its time is up (a tool's timeout, a transfer's bound). */
export class TimeoutError extends Error {
  override readonly name = "TimeoutError";
  constructor(what: string, ms: number) {
    super(`${what} timed out after ${formatMs(ms)}`);
  }
}

/** The reason in-flight calls are cancelled at the end of the shutdown grace period. */
export class ShutdownError extends Error {
  override readonly name = "ShutdownError";
  constructor() {
    super("the capability is shutting down");
  }
}

/** The reason a call's signal aborts when its client cancels it or the client's deadline passes. */
export class CancelledError extends Error {
  override readonly name = "AbortError";
  constructor() {
    super("the call was cancelled by the client or its deadline passed");
  }
}

/** What anything thrown says: an Error's message, or the value as a string. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** True for errors produced by an AbortSignal (cancellation or timeout). */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === "AbortError" || err.name === "TimeoutError");
}

/** How a call ended, for operators' logs (never its message, which may quote argument values). */
export type OutcomeKind = "ok" | "unknown_tool" | "invalid_arguments" | "missing_credentials" | "tool_error" | "timeout" | "cancelled" | "shutdown" | "internal_error";

/** The {@link OutcomeKind} of anything thrown during an operation, read as {@link wireError} reads it. */
export function outcomeKind(err: unknown, signal?: AbortSignal): OutcomeKind {
  if (err instanceof ArgumentsError) return "invalid_arguments";
  if (err instanceof CredentialsError) return "missing_credentials";
  if (err instanceof ToolError) return "tool_error";
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof TimeoutError) return "timeout";
    if (reason instanceof ToolError) return "tool_error";
    return reason instanceof ShutdownError ? "shutdown" : "cancelled";
  }
  return "internal_error";
}

/** What {@link wireError} needs to know about the failed operation. */
export interface WireErrorContext {
  /** Names the operation in messages: a tool name, "the upload", "the download". */
  subject: string;
  /** The call's signal; when it aborted, its reason explains the failure better than what was thrown. */
  signal?: AbortSignal | undefined;
  /** Where a server fault's details go. */
  log: Logger;
}

/**
 * The message the caller reads for anything thrown during an operation. A {@link ToolError} is sent as it
 * is; an aborted operation says why (timeout, shutdown, cancellation); anything else is a server fault:
 * its details stay in the logs and the caller gets a reference to quote.
 */
export function wireError(err: unknown, { subject, signal, log }: WireErrorContext): string {
  if (err instanceof ToolError) return err.message;
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof TimeoutError || reason instanceof ToolError) return reason.message;
    if (reason instanceof ShutdownError) return `${subject} was stopped: the capability is shutting down; try again`;
    return `${subject} was cancelled by the caller`;
  }
  const ref = randomBytes(4).toString("hex");
  log.error("internal error", {
    subject,
    ref,
    error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  return `${subject} failed because of an internal error (reference ${ref}); the capability's logs have the details`;
}
