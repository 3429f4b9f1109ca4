import { TimeoutError } from "../errors.js";

/**
 * Subscribes `abort` to a source of cancellation (a transport's cancel event) and returns how to
 * unsubscribe. Cheaper per call than an AbortSignal listener, and what transports have anyway.
 */
export type CancelHook = (abort: (reason: unknown) => void) => () => void;

/** What a scope is linked to: the caller's signal, or a transport's cancel event. */
export type CancelSource = AbortSignal | CancelHook;

/**
 * The scopes running now, for shutdown to abort and wait for: an array with swap-removal (a Set rehashes
 * as calls come and go, allocating each time), and whoever waits for it to empty.
 *
 * The scopes' time limits share one timer, armed for the earliest deadline: a scope costs a number, not
 * a Node timer made and cleared for every call (a Timeout object, a timer list entry, async ids: several
 * µs per call under load, measured by the kit bench). When it fires it times out the scopes that are due
 * and arms itself for the next deadline. It never keeps the process alive by itself: what a call waits
 * for (the client's connection, a socket, a child process) does, and a process with nothing else left
 * has nobody to answer.
 */
export class ScopeGroup {
  readonly scopes: LinkedSignal[] = [];
  /** Told each time the last scope leaves. */
  onEmpty: (() => void) | undefined;
  readonly #waiting: (() => void)[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** When the timer fires (Infinity when none is armed), on performance.now()'s clock. */
  #wakeAt = Infinity;

  /** Adds a scope (its deadline set); returns its index. */
  join(scope: LinkedSignal): number {
    if (scope.deadline < this.#wakeAt) this.#arm(scope.deadline);
    return this.scopes.push(scope) - 1;
  }

  /** Resolves once no scope is left (at once when none is). */
  empty(): Promise<void> {
    return this.scopes.length === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Called by a scope that left: wakes the waiters once the group is empty. */
  left(): void {
    if (this.scopes.length > 0) return;
    if (this.#waiting.length > 0) for (const resolve of this.#waiting.splice(0)) resolve();
    this.onEmpty?.();
  }

  #arm(deadline: number): void {
    clearTimeout(this.#timer);
    this.#wakeAt = deadline;
    this.#timer = setTimeout(this.#fire, Math.max(1, Math.ceil(deadline - performance.now()))).unref();
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    this.#wakeAt = Infinity;
    // Node's timers count whole milliseconds on the event loop's clock: one may fire up to 1 ms before
    // the deadline on this one.
    const now = performance.now() + 1;
    const due: LinkedSignal[] = [];
    let next = Infinity;
    for (const scope of this.scopes) {
      if (scope.signal.aborted) continue;
      if (scope.deadline <= now) due.push(scope);
      else if (scope.deadline < next) next = scope.deadline;
    }
    if (next !== Infinity) this.#arm(next);
    // Aborting runs listeners (a handler's, the transport's), which may start or end other scopes.
    for (const scope of due) scope.timeUp();
  };
}

/**
 * An AbortSignal linked up front to what a call or transfer runs under (the caller's cancel, shutdown)
 * and to its own time limit, as connect-es links a handler's context: one controller, aborted with the
 * first reason to arrive. While it runs it sits in its `group`, the list the runtime aborts at shutdown;
 * `dispose()` leaves the group (and so its timer) and unsubscribes, so nothing outlives the call.
 *
 * It lives as long as its call and is made for every call: it holds no more than it needs (one closure,
 * a deadline its group's timer reads), since per-call objects that outlive a young-generation GC are
 * promoted and cost a full GC.
 */
export class LinkedSignal {
  readonly signal: AbortSignal;
  /** Aborts the signal with `reason`; the first reason wins. */
  readonly abort: (reason: unknown) => void;
  /** When it times out, on performance.now()'s clock (Infinity: never). */
  readonly deadline: number;
  readonly #group: ScopeGroup;
  /** This scope's index in its group (-1 once disposed). */
  #slot: number;
  readonly #subject: string;
  readonly #timeoutMs: number | undefined;
  #unlink: (() => void) | undefined;

  /**
   * @param subject names what timed out in the TimeoutError ("send_email", "the download").
   * @param group the scopes running now, which this one joins until disposed (the runtime aborts them at
   * shutdown, and waits for them to end).
   */
  constructor(group: ScopeGroup, subject: string, timeoutMs: number | undefined) {
    const controller = new AbortController();
    this.signal = controller.signal;
    this.abort = (reason) => controller.abort(reason);
    this.#group = group;
    this.#subject = subject;
    this.#timeoutMs = timeoutMs;
    this.deadline = timeoutMs === undefined ? Infinity : performance.now() + timeoutMs;
    this.#slot = group.join(this);
  }

  /** Links a source: its cancellation aborts this signal (at once if it already happened). */
  link(source: CancelSource | undefined): this {
    if (!source || this.signal.aborted) return this;
    let unlink: () => void;
    if (typeof source === "function") {
      unlink = source(this.abort);
    } else if (source.aborted) {
      this.abort(source.reason);
      return this;
    } else {
      const onAbort = () => this.abort(source.reason);
      source.addEventListener("abort", onAbort, { once: true });
      unlink = () => source.removeEventListener("abort", onAbort);
    }
    const previous = this.#unlink;
    this.#unlink = previous ? () => (previous(), unlink()) : unlink;
    return this;
  }

  dispose(): void {
    if (this.#slot < 0) return;
    const { scopes } = this.#group;
    const last = scopes.pop()!;
    if (last !== this) {
      scopes[this.#slot] = last;
      last.#slot = this.#slot;
    }
    this.#slot = -1;
    this.#unlink?.();
    this.#unlink = undefined;
    this.#group.left();
  }

  /** Aborts with a TimeoutError naming the subject; its group calls it once the deadline has passed. */
  timeUp(): void {
    this.abort(new TimeoutError(this.#subject, this.#timeoutMs!));
  }
}
