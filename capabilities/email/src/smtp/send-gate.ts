/**
 * Lets `slots` sends run at once; the others wait their turn in order. A message with 18 MiB of
 * attachments takes ~50 MiB while it is encoded and written, so two at once could pass the
 * container's memory limit. Waiting ends early when the call is cancelled.
 */
export class SendGate {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(slots: number) {
    this.#free = slots;
  }

  async run<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    await this.#acquire(signal);
    try {
      return await work();
    } finally {
      this.#release();
    }
  }

  #acquire(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const index = this.#waiting.indexOf(grant);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(grant);
    });
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next(); // the slot passes straight to the next in line
    else this.#free += 1;
  }
}
