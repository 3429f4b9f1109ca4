/**
 * An error whose message is meant for the caller: it crosses the wire as `InvokeResponse.error` as is.
 * Throw it from a tool for anything the user or the model can act on (bad input, a refused upstream,
 * a limit). Anything else thrown is treated as a server fault: logged with its cause, never sent.
 *
 * @example
 * throw new ToolError("attachments[0]: expected a PDF, got image/png");
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** True for errors produced by an AbortSignal (cancellation or timeout). */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === "AbortError" || err.name === "TimeoutError");
}
