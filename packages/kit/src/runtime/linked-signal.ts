/**
 * Subscribes `abort` to a source of cancellation (a transport's cancel event, shutdown) and returns how to
 * unsubscribe. Cheaper per call than an AbortSignal listener, and what transports have anyway.
 */
export type CancelHook = (abort: (reason: unknown) => void) => () => void;

/**
 * An AbortSignal linked up front to what a call runs under (the caller's cancel, shutdown) and to its own
 * time limit, as connect-es links a handler's context: one controller, aborted with the first reason to
 * arrive. `dispose()` stops the timer and unsubscribes, so nothing outlives the call.
 */
export class LinkedSignal {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #unlink: (() => void)[] = [];

  constructor(sources: readonly (AbortSignal | CancelHook | undefined)[], timeoutMs: number | undefined, timeoutReason: () => unknown) {
    const abort = (reason: unknown) => this.#controller.abort(reason);
    for (const source of sources) {
      if (!source) continue;
      if (typeof source === "function") {
        this.#unlink.push(source(abort));
      } else if (source.aborted) {
        abort(source.reason);
      } else {
        const onAbort = () => abort(source.reason);
        source.addEventListener("abort", onAbort, { once: true });
        this.#unlink.push(() => source.removeEventListener("abort", onAbort));
      }
      if (this.#controller.signal.aborted) return;
    }
    if (timeoutMs !== undefined) this.#timer = setTimeout(() => abort(timeoutReason()), timeoutMs);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    for (const unlink of this.#unlink) unlink();
    this.#unlink.length = 0;
  }
}
