/**
 * Bounds the heavy work (rendering, merging, reading PDFs) running at once in the process. The work is
 * CPU-bound on one thread, so running more at once adds memory (tens of MB for a large document or PDF),
 * not speed. A render takes one slot, so a short letter need not wait behind a long report; a merge or an
 * extraction, which hold whole PDFs parsed in memory, take them all. Callers wait in order; their call's
 * signal still cancels them while they wait.
 */
export class WorkSlots {
  readonly #size: number;
  #busy = 0;
  readonly #waiting: { weight: number; grant: () => void }[] = [];

  constructor(size: number) {
    this.#size = size;
  }

  /** Waits until `weight` slots (at most all of them) are free; resolves with the function that frees them. */
  async acquire(signal: AbortSignal, weight = 1): Promise<() => void> {
    signal.throwIfAborted();
    const need = Math.min(weight, this.#size);
    if (this.#waiting.length === 0 && this.#busy + need <= this.#size) this.#busy += need;
    else {
      await new Promise<void>((resolve, reject) => {
        const entry = {
          weight: need,
          grant: () => {
            signal.removeEventListener("abort", cancel);
            resolve();
          },
        };
        const cancel = () => {
          const at = this.#waiting.indexOf(entry);
          if (at >= 0) this.#waiting.splice(at, 1);
          this.#grant();
          reject(signal.reason);
        };
        signal.addEventListener("abort", cancel, { once: true });
        this.#waiting.push(entry);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#busy -= need;
      this.#grant();
    };
  }

  /** Slots in use, and callers waiting (for tests and logs). */
  get stats(): { busy: number; waiting: number } {
    return { busy: this.#busy, waiting: this.#waiting.length };
  }

  // First come, first served: a heavy caller at the head is not overtaken by lighter ones behind it.
  #grant(): void {
    while (this.#waiting.length > 0 && this.#busy + this.#waiting[0]!.weight <= this.#size) {
      const next = this.#waiting.shift()!;
      this.#busy += next.weight;
      next.grant();
    }
  }
}

/** The process's slots: two renders at once, or one merge or extraction. */
export const workSlots = new WorkSlots(2);
