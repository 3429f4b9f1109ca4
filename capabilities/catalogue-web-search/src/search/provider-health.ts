/** When a provider is skipped: after `threshold` failures in a row, for `cooldownMs`; or until its Retry-After. */
export interface HealthOptions {
  threshold: number;
  cooldownMs: number;
  now?: () => number;
}

/**
 * Remembers which providers keep failing, across calls of one process (a shared container serves every
 * session), so a dead provider costs one timeout now and then rather than one per search.
 */
export class ProviderHealth {
  readonly #options: HealthOptions;
  readonly #failures = new Map<string, number>();
  readonly #skipUntil = new Map<string, number>();

  constructor(options: HealthOptions) {
    this.#options = options;
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }

  /** Whether the provider is resting after repeated failures or a Retry-After. */
  isResting(key: string): boolean {
    return (this.#skipUntil.get(key) ?? 0) > this.#now();
  }

  succeeded(name: string): void {
    this.#failures.delete(name);
    this.#skipUntil.delete(name);
  }

  /** Records a failure; `restMs` (from Retry-After) rests the provider at once. */
  failed(name: string, restMs?: number): void {
    const count = (this.#failures.get(name) ?? 0) + 1;
    this.#failures.set(name, count);
    let until = this.#skipUntil.get(name) ?? 0;
    if (count >= this.#options.threshold) until = Math.max(until, this.#now() + this.#options.cooldownMs);
    if (restMs !== undefined) until = Math.max(until, this.#now() + restMs);
    if (until > 0) this.#skipUntil.set(name, until);
  }
}
