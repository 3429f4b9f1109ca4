import { ToolError } from "@selu-catalogue/kit";

/** A send's outcome, kept so a retried call can answer without sending again. */
interface Entry<T> {
  at: number;
  outcome: Promise<T>;
}

/**
 * Remembers recent sends by a key derived from the call (session, recipients, content, attachment
 * bytes) for `windowMs`, so a retried or repeated call does not send the same message twice: while
 * the first is in flight the retry waits for it, afterwards it gets the first result. A failed send
 * is forgotten at once, so it can be retried. Bounded: the oldest entries go first.
 */
export class SentMessages<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #windowMs: number;
  readonly #max: number;
  readonly #now: () => number;

  constructor(options: { windowMs: number; max?: number; now?: () => number }) {
    this.#windowMs = options.windowMs;
    this.#max = options.max ?? 1000;
    this.#now = options.now ?? Date.now;
  }

  /** Runs `send` unless `key` was sent (or is being sent) within the window; `duplicate` tells which. */
  async once(key: string, send: () => Promise<T>): Promise<{ result: T; duplicate: boolean; sentAt: number }> {
    const at = this.#now();
    const known = this.#entries.get(key);
    if (known && known.at >= at - this.#windowMs) return { result: await joined(known.outcome), duplicate: true, sentAt: known.at };
    this.#entries.delete(key);
    this.#evict(at);
    const outcome = send();
    this.#entries.set(key, { at, outcome });
    try {
      return { result: await outcome, duplicate: false, sentAt: at };
    } catch (err) {
      if (this.#entries.get(key)?.outcome === outcome) this.#entries.delete(key);
      throw err;
    }
  }

  /** Drops expired entries and, past the bound, the oldest ones, to make room for one more. */
  #evict(now: number): void {
    const oldest = now - this.#windowMs;
    for (const [key, entry] of this.#entries) {
      if (entry.at >= oldest && this.#entries.size < this.#max) break;
      this.#entries.delete(key);
    }
  }
}

/**
 * The outcome of the identical call in progress. Its ToolError explains itself; anything else (its
 * cancellation, its timeout) belongs to that call, not this one, so this one says what happened.
 */
async function joined<T>(outcome: Promise<T>): Promise<T> {
  try {
    return await outcome;
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw new ToolError("an identical send_email call was still running and did not finish (it was cancelled or timed out); check the Sent mailbox, then try again", { cause: err });
  }
}
