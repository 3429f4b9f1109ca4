/** How long Selu lets a call wait for a free slot of a shared container (`SHARED_SEMAPHORE_TIMEOUT`). */
export const SHARED_SLOT_WAIT_MS = 30_000;

/**
 * A counting semaphore with a bounded wait, as Selu guards a shared container: `max_concurrent` calls at
 * once, the next caller waits up to the timeout for a slot and then fails.
 */
export class Slots {
  #free: number;
  #peak = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    this.#free = Math.max(1, size);
  }

  /** Calls in flight now. */
  get busy(): number {
    return Math.max(1, this.size) - this.#free;
  }

  /** Most calls in flight at once so far. */
  get peak(): number {
    return this.#peak;
  }

  /** A release function, or undefined when no slot freed up within `timeoutMs`. */
  async acquire(timeoutMs: number): Promise<(() => void) | undefined> {
    if (this.#free > 0) {
      this.#free -= 1;
      return this.#releaser();
    }
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(this.#releaser());
      };
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(wake), 1);
        resolve(undefined);
      }, timeoutMs);
      this.#waiting.push(wake);
    });
  }

  #releaser(): () => void {
    this.#peak = Math.max(this.#peak, this.busy);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free += 1;
    };
  }
}
