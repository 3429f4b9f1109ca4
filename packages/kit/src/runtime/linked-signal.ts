/**
 * An AbortSignal linked up front to the signals a call runs under (the caller's cancel, shutdown) and to
 * its own time limit, as connect-es links a handler's context: one controller, aborted with the first
 * reason to arrive. `dispose()` stops the timer and detaches from the outer signals, so nothing outlives
 * the call.
 */
export class LinkedSignal {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #outer: AbortSignal[] = [];
  readonly #onAbort = (event: Event) => this.#controller.abort((event.target as AbortSignal).reason);

  constructor(outer: readonly (AbortSignal | undefined)[], timeoutMs: number | undefined, timeoutReason: () => unknown) {
    for (const signal of outer) {
      if (!signal) continue;
      if (signal.aborted) {
        this.#controller.abort(signal.reason);
        return;
      }
      signal.addEventListener("abort", this.#onAbort, { once: true });
      this.#outer.push(signal);
    }
    if (timeoutMs !== undefined) this.#timer = setTimeout(() => this.#controller.abort(timeoutReason()), timeoutMs);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Aborts with `reason` unless already aborted. */
  abort(reason: unknown): void {
    this.#controller.abort(reason);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    for (const signal of this.#outer) signal.removeEventListener("abort", this.#onAbort);
    this.#outer.length = 0;
  }
}
