import type { HttpClient, HttpRequestInit, HttpResponse } from "@selu-catalogue/kit/egress";
import { errorMessage, isAbortError } from "@selu-catalogue/kit";
import { ProviderError, parseRetryAfter } from "./provider-error.js";
import type { ProviderName } from "./types.js";

/**
 * A provider's own reading of a non-2xx answer (a bad key, a used-up quota, a disabled format), from
 * its status, the short reason in its error body and Retry-After; undefined leaves the common reading.
 */
export type ExplainStatus = (status: number, detail: string, retryAfterMs: number | undefined) => ProviderError | undefined;

/**
 * One provider request: bounded by `timeoutMs` (so a stalled provider gives way to the next) and by
 * the caller's signal; every failure becomes a {@link ProviderError} in words an operator can act on.
 * Returns the parsed JSON body of a 2xx answer.
 */
export async function providerRequest(
  http: HttpClient,
  provider: ProviderName,
  url: URL,
  init: HttpRequestInit & { timeoutMs: number; signal: AbortSignal },
  explain: ExplainStatus,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(init.timeoutMs);
  const signal = AbortSignal.any([init.signal, timeout]);
  let response: HttpResponse;
  try {
    response = await http.request(url, { ...init, signal });
  } catch (err) {
    if (init.signal.aborted) throw init.signal.reason;
    if (timeout.aborted || isAbortError(err)) {
      throw new ProviderError(provider, "unavailable", `${url.host} did not answer within ${init.timeoutMs / 1000} s`, { cause: err });
    }
    const why = errorMessage(err);
    throw new ProviderError(provider, "unavailable", why, { cause: err });
  }
  const { status } = response;
  if (status >= 200 && status <= 299) {
    try {
      return JSON.parse(response.body.toString("utf8")) as unknown;
    } catch (err) {
      throw new ProviderError(provider, "bad_response", `${url.host} answered HTTP ${status} with something that is not JSON`, { cause: err });
    }
  }
  const retryAfterMs = parseRetryAfter(response.headers["retry-after"]);
  const detail = errorDetail(response.body);
  const known = explain(status, detail, retryAfterMs);
  if (known) throw known;
  if (status === 429) {
    const wait = retryAfterMs === undefined ? "" : ` (retry after ${Math.ceil(retryAfterMs / 1000)} s)`;
    throw new ProviderError(provider, "rate_limited", `${url.host} rate-limited the request with HTTP 429${wait}`, { retryAfterMs });
  }
  if (status >= 500) throw new ProviderError(provider, "unavailable", `${url.host} answered HTTP ${status} (a fault on its side)`, { retryAfterMs });
  throw new ProviderError(provider, "rejected", `${url.host} answered HTTP ${status}${detail ? `: ${detail}` : ""}`);
}

/** A short reason from an error body (`{"error": {"detail": ...}}`, `{"detail": ...}`), never more than 200 characters. */
function errorDetail(body: Buffer): string {
  let parsed: Record<string, unknown>;
  try {
    parsed = obj(JSON.parse(body.toString("utf8")));
  } catch {
    return "";
  }
  const error = parsed.error;
  const inner = obj(error);
  const detailObj = obj(parsed.detail);
  const parts = [str(inner.code), str(inner.detail) ?? str(inner.message), str(error), str(parsed.detail), str(detailObj.error), str(parsed.message)];
  return parts
    .filter((p): p is string => Boolean(p))
    .join(": ")
    .replace(/\s+/g, " ")
    .slice(0, 200);
}

/** Reads a property as a string when it is one (providers' JSON is untrusted). */
export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** An object's property bag, or an empty one. */
export function obj(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** An array property, or an empty one. */
export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
