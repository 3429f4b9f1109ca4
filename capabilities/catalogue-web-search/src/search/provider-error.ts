import { createHash } from "node:crypto";
import type { ProviderName } from "./types.js";

/**
 * Why a provider failed, which decides what happens next:
 * - `auth`: the key is wrong or lacks access (operator must fix it; next provider);
 * - `quota`: the plan's quota is used up (next provider; skipped for a while);
 * - `rate_limited`: 429 (wait for Retry-After when it fits the deadline, else next provider);
 * - `config`: the operator's setting can't work (SearXNG without JSON, a bad URL);
 * - `unavailable`: network, timeout, 5xx (next provider);
 * - `bad_response`: an answer that is not the documented JSON (next provider);
 * - `rejected`: the provider refused this query (400): the next one may take it.
 */
export type ProviderFailure = "auth" | "quota" | "rate_limited" | "config" | "unavailable" | "bad_response" | "rejected";

/** A failed provider call, worded for the operator and the model; never carries a key or the query. */
export class ProviderError extends Error {
  readonly provider: ProviderName;
  readonly failure: ProviderFailure;
  /** From Retry-After, in ms, when the provider sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(provider: ProviderName, failure: ProviderFailure, message: string, options: { retryAfterMs?: number | undefined; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.provider = provider;
    this.failure = failure;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * Parses Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP date. Returns ms from `now`, or
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its weekday and month; Date.parse would also read "-1" as a year.
  if (!/^[A-Za-z]{3},/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A provider's identity for {@link ProviderHealth}: its name and a short hash of its credential (never the credential). */
export function healthKey(name: ProviderName, credential: string): string {
  return `${name}:${createHash("sha256").update(credential).digest("hex").slice(0, 12)}`;
}
