import { ToolError } from "../errors.js";
import { formatMs } from "../format.js";

/** How many units of work run at once, and how long and how many others may wait for them. */
export interface WorkSlotsOptions {
  /** Units that may be held at once. */
  size: number;
  /** Callers that may wait; one more is refused at once. Default: no bound. */
  maxWaiting?: number;
  /** How long a caller waits before it is refused, in ms. Default: until its signal aborts. */
  maxWaitMs?: number;
  /** What the slots are for, in refusals: "calls", "PDF renders". */
  label?: string;
}

/** Frees what `acquire` took; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  weight: number;
  grant: () => void;
}

/**
 * A weighted, cancellable limiter: light work takes one unit, heavy work several (at most all), callers
 * are served first come, first served (a heavy caller at the head is not overtaken), a waiting caller's
 * signal cancels its wait, and the queue and the wait are bounded so a burst is refused in words instead
 * of piling up in memory (issue 10 item 7, issue 11 item 4). Tools reach the capability's pool through
 * `ctx.slots` (`await ctx.slots.run(() => render(doc), 1)`); the kit also admits calls with one.
 */
export class WorkSlots {
  readonly size: number;
  readonly #options: WorkSlotsOptions;
  #busy = 0;
  readonly #waiting: Waiter[] = [];

  constructor(options: WorkSlotsOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new RangeError(`WorkSlots: size must be a positive integer, got ${options.size}`);
    this.size = options.size;
    this.#options = options;
  }

  /** Takes `weight` units at once if they are free and nobody waits; else undefined (no promise, no timer). */
  tryAcquire(weight = 1): Release | undefined {
    return this.tryTake(weight) ? this.#releaser(Math.min(weight, this.size)) : undefined;
  }

  /** `tryAcquire` without a release function, for the per-call hot path: give the units back with `give`. */
  tryTake(weight = 1): boolean {
    const need = Math.min(weight, this.size);
    if (this.#waiting.length > 0 || this.#busy + need > this.size) return false;
    this.#busy += need;
    return true;
  }

  /** Gives back units taken with `tryTake`. */
  give(weight = 1): void {
    this.#busy -= Math.min(weight, this.size);
    this.#grant();
  }

  /**
   * Waits for `weight` units (at most all of them) and resolves with the function that frees them.
   * @throws the signal's reason when it aborts while waiting; a ToolError when the queue is full or the
   * wait passes `maxWaitMs`.
   */
  async acquire(signal: AbortSignal, weight = 1): Promise<Release> {
    signal.throwIfAborted();
    const now = this.tryAcquire(weight);
    if (now) return now;
    const { maxWaiting, maxWaitMs } = this.#options;
    if (maxWaiting !== undefined && this.#waiting.length >= maxWaiting) throw this.#busyError(`${this.#waiting.length} more are waiting`);
    const need = Math.min(weight, this.size);
    await new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const leave = (err: unknown) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        const at = this.#waiting.indexOf(waiter);
        if (at >= 0) this.#waiting.splice(at, 1);
        this.#grant(); // a heavy caller leaving the head may let lighter ones through
        reject(err);
      };
      const onAbort = () => leave(signal.reason);
      const waiter: Waiter = {
        weight: need,
        grant: () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      signal.addEventListener("abort", onAbort, { once: true });
      if (maxWaitMs !== undefined) timer = setTimeout(() => leave(this.#busyError(`none came free within ${formatMs(maxWaitMs)}`)), maxWaitMs);
      this.#waiting.push(waiter);
    });
    return this.#releaser(need);
  }

  /** Runs `work` holding `weight` units, and frees them however it ends. */
  async run<T>(signal: AbortSignal, work: () => Promise<T> | T, weight = 1): Promise<T> {
    const release = await this.acquire(signal, weight);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Units in use, and callers waiting (for tests and logs). */
  get stats(): { busy: number; waiting: number } {
    return { busy: this.#busy, waiting: this.#waiting.length };
  }

  #releaser(need: number): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#busy -= need;
      this.#grant();
    };
  }

  #grant(): void {
    while (this.#waiting.length > 0 && this.#busy + this.#waiting[0]!.weight <= this.size) {
      const next = this.#waiting.shift()!;
      this.#busy += next.weight;
      next.grant();
    }
  }

  #busyError(why: string): ToolError {
    const label = this.#options.label ?? "work slots";
    return new ToolError(`the capability is busy: all ${this.size} ${label} are taken and ${why}; try again in a moment or make fewer calls at once`);
  }
}

/** The capability's work slots as a tool sees them (`ctx.slots`): waits end with the call's signal. */
export interface CallSlots {
  /** Runs `work` holding `weight` units (default 1; more than the pool holds means all of it). */
  run<T>(work: () => Promise<T> | T, weight?: number): Promise<T>;
  /** Takes `weight` units; call the returned function to free them. */
  acquire(weight?: number): Promise<Release>;
}

/** `slots` bound to one call's signal: a class, since one is made for every call and its methods are shared. */
export class BoundSlots implements CallSlots {
  readonly #slots: WorkSlots;
  readonly #signal: AbortSignal;

  constructor(slots: WorkSlots, signal: AbortSignal) {
    this.#slots = slots;
    this.#signal = signal;
  }

  run<T>(work: () => Promise<T> | T, weight?: number): Promise<T> {
    return this.#slots.run(this.#signal, work, weight);
  }

  acquire(weight?: number): Promise<Release> {
    return this.#slots.acquire(this.#signal, weight);
  }
}
