/**
 * What one connection may reset before the server closes it: the guard against HTTP/2 rapid reset
 * (CVE-2023-44487), where a client opens streams and resets them at once, so the server starts call after
 * call for nothing while the concurrent-stream bound never fills. Node's own guard (nghttp2's) counts every
 * RST_STREAM, and Selu resets each download once it has the `done` chunk whenever the trailers are not in
 * yet: a busy connection was closed, calls in flight and all, after 1,000 downloads at more than 33 a
 * second. This one counts only resets of streams whose answer was not complete, with nghttp2's budget: 1,000,
 * then 33 a second more.
 */
export class ResetBudget {
  readonly #burst: number;
  readonly #perSecond: number;
  readonly #now: () => number;
  #tokens: number;
  #at: number;

  constructor(burst = 1_000, perSecond = 33, now: () => number = () => performance.now()) {
    this.#burst = burst;
    this.#perSecond = perSecond;
    this.#now = now;
    this.#tokens = burst;
    this.#at = now();
  }

  /** Counts one reset; false once the budget is spent (the connection should be closed). */
  take(): boolean {
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#at) / 1000) * this.#perSecond);
    this.#at = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
