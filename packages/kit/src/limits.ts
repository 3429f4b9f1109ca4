import type { JsonBounds } from "./limits/json-bounds.js";

/** Bounds every capability runs within; each can be overridden per capability in `defineCapability`. */
export interface Limits {
  /** Largest single artifact, input or output, in bytes. */
  maxArtifactBytes: number;
  /** All artifacts held in memory at once, in bytes; the least recently used are evicted past it. */
  artifactBudgetBytes: number;
  /** How long an artifact can be downloaded or used after it was stored, in ms. */
  artifactTtlMs: number;
  /** Time a tool may run before it is stopped, in ms (below Selu's 120 s deadline, so the error is ours). */
  toolTimeoutMs: number;
  /**
   * An upload or download that makes no progress for this long is cut, in ms: a client that stops sending
   * or reading would otherwise hold its memory for as long as it keeps the call open.
   */
  transferIdleMs: number;
  /**
   * Longest a download may take in total, in ms. Selu sends no deadline and its own timer stops at the
   * first chunk (contract section 2), so the kit bounds the rest.
   */
  downloadTimeoutMs: number;
  /** Download bytes handed to the transport and not yet sent, across all downloads. */
  downloadBufferBytes: number;
  /** How long SIGTERM waits for in-flight calls before cancelling them, in ms. */
  shutdownGraceMs: number;
  /** Outbound HTTP response bodies larger than this are refused while reading, in bytes. */
  httpMaxResponseBytes: number;
  /** Outbound connect (also tunnels), response-head and whole-body time limits, in ms. */
  httpTimeouts: { connectMs: number; headersMs: number; bodyMs: number };
  /** Size and structure of a call's `args_json`, checked before it is parsed; a tool may raise them. */
  args: JsonBounds;
  /**
   * Calls run at once (a shared capability's `sharing.max_concurrent`), calls that may wait for one, and
   * how long; past either a call is refused in words. Whatever arrives, memory stays bounded.
   */
  calls: CallLimits;
  /** Units of heavy work tools may hold at once through `ctx.slots` (renders, merges, sends). */
  workSlots: number;
}

/** The kit's admission of Invoke calls. */
export interface CallLimits {
  /** Calls running at once. */
  max: number;
  /** Calls waiting for a running one to finish; one more is refused at once. */
  maxWaiting: number;
  /** How long a call waits before it is refused, in ms (Selu waits 30 s for a shared container's slot). */
  maxWaitMs: number;
  /**
   * How long a call answered cancelled or timed out keeps its slot while its handler runs on, in ms: the
   * slot comes free when the handler ends, or after this long with a warning (a handler that never ends
   * must not take a slot for good).
   */
  cancelGraceMs: number;
}

/** What `defineCapability({ limits })` may override; nested bounds may be given in part. */
export type LimitOverrides = Partial<Omit<Limits, "args" | "calls">> & { args?: Partial<JsonBounds>; calls?: Partial<CallLimits> };

/** gRPC message bound of the Selu orchestrator, each way. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Artifact chunk size used by Selu for uploads, and by us for downloads. */
export const ARTIFACT_CHUNK_BYTES = 256 * 1024;

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxArtifactBytes: 5 * 1024 * 1024,
  artifactBudgetBytes: 16 * 1024 * 1024,
  artifactTtlMs: 6 * 60 * 60 * 1000,
  toolTimeoutMs: 110_000,
  transferIdleMs: 30_000,
  downloadTimeoutMs: 120_000,
  downloadBufferBytes: 8 * 1024 * 1024,
  shutdownGraceMs: 10_000,
  httpMaxResponseBytes: 5 * 1024 * 1024,
  httpTimeouts: Object.freeze({ connectMs: 10_000, headersMs: 30_000, bodyMs: 60_000 }),
  // Strings up to a few MiB are cheap to parse, structure is not (each parsed value costs tens of bytes
  // of heap, more once validated), so values are bounded tightly. A tool that takes big documents raises
  // them with `tool({ args: {...} })`, sized from its own schema.
  args: Object.freeze({ maxBytes: 4 * 1024 * 1024, maxValues: 10_000, maxDepth: 32 }),
  calls: Object.freeze({ max: 4, maxWaiting: 16, maxWaitMs: 30_000, cancelGraceMs: 10_000 }),
  workSlots: 2,
});
