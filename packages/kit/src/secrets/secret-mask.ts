import { secretsPattern } from "./secret-forms.js";

/** How many credential values are remembered at once: bounded so the set cannot grow with users. */
const MAX_VALUES = 256;

/**
 * Credential values seen recently, masked in every log line as a second line of defence, and the one
 * pattern matching all their forms. The pattern is rebuilt when a value is added, not for each line
 * (a line per call is written at the default level).
 */
export class SecretMask {
  readonly #values = new Set<string>();
  #pattern: RegExp | undefined;
  #stale = false;

  /** Remembers `values` (empty ones skipped); past 256, the oldest are forgotten first. */
  remember(values: Iterable<string | undefined>): void {
    for (const value of values) {
      if (!value || this.#values.has(value)) continue;
      if (this.#values.size >= MAX_VALUES) this.#values.delete(this.#values.values().next().value!);
      this.#values.add(value);
      this.#stale = true;
    }
  }

  /** One case-insensitive pattern for every form of every remembered value; undefined for none. */
  pattern(): RegExp | undefined {
    if (this.#stale) {
      this.#pattern = secretsPattern(this.#values);
      this.#stale = false;
    }
    return this.#pattern;
  }
}
