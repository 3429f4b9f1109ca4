/**
 * Bytes shared by concurrent transfers, handed out first come, first served: `acquire` waits until the
 * bytes fit (one request larger than the whole budget still gets it when nothing else holds any), or
 * rejects with the signal's reason. It resolves true when it had to wait.
 */
export class ByteBudget {
  readonly #max: number;
  #used = 0;
  readonly #waiting: { bytes: number; grant: () => void }[] = [];

  constructor(maxBytes: number) {
    this.#max = maxBytes;
  }

  get usedBytes(): number {
    return this.#used;
  }

  acquire(bytes: number, signal: AbortSignal): Promise<boolean> {
    if (this.#waiting.length === 0 && this.#fits(bytes)) {
      this.#used += bytes;
      return Promise.resolve(false);
    }
    signal.throwIfAborted();
    return new Promise<boolean>((resolve, reject) => {
      const waiter = {
        bytes,
        grant: () => {
          signal.removeEventListener("abort", onAbort);
          this.#used += bytes;
          resolve(true);
        },
      };
      const onAbort = () => {
        this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  release(bytes: number): void {
    if (bytes === 0) return;
    this.#used -= bytes;
    while (this.#waiting.length > 0 && this.#fits(this.#waiting[0]!.bytes)) this.#waiting.shift()!.grant();
  }

  #fits(bytes: number): boolean {
    return this.#used === 0 || this.#used + bytes <= this.#max;
  }
}
