import { createArtifactAccess, type ArtifactAccess } from "../artifacts/access.js";
import type { ToolContext, ToolDefinition } from "../define.js";
import type { Limits } from "../limits.js";
import { callSlots, type CallSlots } from "../limits/work-slots.js";
import type { Logger } from "../log.js";
import type { InvokeInput, InvokeOptions } from "./invoke.js";
import type { Runtime } from "./runtime.js";

/**
 * What a handler gets as `ctx`, for one call. Its AbortSignal is armed on first use: it aborts on the
 * caller's cancel or deadline, at shutdown, or when the tool's timeout passes. Most calls of simple tools
 * never need it, and arming costs a timer and listeners. A class, not an object literal with getters, so
 * that making one per call stays cheap.
 */
export class CallContext implements ToolContext {
  readonly toolName: string;
  readonly capabilityId: string;
  readonly sessionId: string;
  readonly threadId: string;
  readonly credentials: ToolContext["credentials"];
  readonly limits: Readonly<Limits>;
  readonly #runtime: Runtime;
  readonly #timeoutMs: number;
  readonly #options: InvokeOptions;
  #controller: AbortController | undefined;
  #timer: NodeJS.Timeout | undefined;
  #unlink: (() => void)[] | undefined;
  #artifacts: ArtifactAccess | undefined;
  #log: Logger | undefined;

  constructor(runtime: Runtime, def: ToolDefinition, input: InvokeInput, options: InvokeOptions, credentials: Record<string, string | undefined>) {
    this.#runtime = runtime;
    this.#timeoutMs = def.timeoutMs ?? runtime.capability.limits.toolTimeoutMs;
    this.#options = options;
    this.toolName = input.toolName;
    this.capabilityId = runtime.capability.id;
    this.sessionId = input.sessionId;
    this.threadId = input.threadId;
    // Needed credentials were checked by the caller; a tool narrowing `needs` reads the others as optional.
    this.credentials = credentials as ToolContext["credentials"];
    this.limits = runtime.capability.limits;
  }

  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = (this.#controller = new AbortController());
    this.#timer = setTimeout(() => controller.abort(new TimeoutError(this.toolName, this.#timeoutMs)), this.#timeoutMs);
    this.#unlink = [];
    for (const outer of [this.#options.signal, this.#runtime.shutdownSignal]) {
      if (!outer) continue;
      if (outer.aborted) {
        controller.abort(outer.reason);
        break;
      }
      const onAbort = () => controller.abort(outer.reason);
      outer.addEventListener("abort", onAbort, { once: true });
      this.#unlink.push(() => outer.removeEventListener("abort", onAbort));
    }
    return controller.signal;
  }

  get artifacts(): ArtifactAccess {
    return (this.#artifacts ??= createArtifactAccess(this.#runtime.store, this.signal));
  }

  get slots(): CallSlots {
    return callSlots(this.#runtime.slots, this.signal);
  }

  get log(): Logger {
    return (this.#log ??= this.#runtime.log.child({ tool: this.toolName }));
  }

  get http(): ToolContext["http"] {
    return this.#runtime.egress.http;
  }

  // A getter returning a fresh function, so `const { openTunnel } = ctx` works like the other fields.
  get openTunnel(): ToolContext["openTunnel"] {
    return (host, port, request) => this.#runtime.egress.openTunnel(host, port, { signal: this.signal, ...request });
  }

  /** Why the call was aborted, if it was; a signal never armed was never aborted. */
  get abortReason(): { reason: unknown } | undefined {
    return this.#controller?.signal.aborted ? { reason: this.#controller.signal.reason } : undefined;
  }

  /** Stops the timer and detaches from the outer signals once the call is answered. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#unlink?.forEach((fn) => fn());
  }
}

export class TimeoutError extends Error {
  override readonly name = "TimeoutError";
  constructor(toolName: string, ms: number) {
    super(`${toolName} timed out after ${ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`}`);
  }
}
