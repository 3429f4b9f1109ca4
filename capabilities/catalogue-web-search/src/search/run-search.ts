import { ToolError } from "@selu-catalogue/kit";
import type { Logger } from "@selu-catalogue/kit";
import { WEB_LIMITS } from "../limits.js";
import { ProviderError } from "./provider-error.js";
import type { ProviderHealth } from "./provider-health.js";
import type { Provider, ProviderAnswer, SearchQuery } from "./types.js";

/** The answer of the first provider that answered, and what happened to those tried before it. */
export interface SearchOutcome {
  provider: Provider["name"];
  answer: ProviderAnswer;
  /** Providers that failed before this one, in words (for the model and the operator). */
  fallbacks: string[];
}

/**
 * Tries `providers` in order until one answers. A 429 whose Retry-After fits what is left of the
 * deadline (and {@link WEB_LIMITS.maxRetryAfterMs}) is waited for once, when no other provider is left to
 * try; otherwise the next provider is tried. Providers resting after repeated failures are tried last.
 * @throws {ToolError} listing every provider's failure when none answered.
 */
export async function runSearch(providers: readonly Provider[], query: SearchQuery, health: ProviderHealth, signal: AbortSignal, log: Logger, deadline: number): Promise<SearchOutcome> {
  const ordered = [...providers.filter((p) => !health.isResting(p.key)), ...providers.filter((p) => health.isResting(p.key))];
  const failures: ProviderError[] = [];
  const waited = new Set<string>();
  for (let i = 0; i < ordered.length; i++) {
    const provider = ordered[i]!;
    signal.throwIfAborted();
    if (Date.now() >= deadline) break;
    try {
      const answer = await provider.search(query, signal);
      health.succeeded(provider.key);
      return { provider: provider.name, answer, fallbacks: failures.map(describe) };
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      log.warn("search provider failed", { provider: provider.name, failure: err.failure, reason: err.message });
      health.failed(provider.key, err.retryAfterMs);
      const last = i === ordered.length - 1;
      const wait = err.retryAfterMs;
      if (err.failure === "rate_limited" && last && wait !== undefined && !waited.has(provider.name)) {
        if (wait <= WEB_LIMITS.maxRetryAfterMs && Date.now() + wait < deadline) {
          waited.add(provider.name);
          await sleep(wait, signal);
          i -= 1; // the same provider once more
          continue;
        }
      }
      failures.push(err);
    }
  }
  if (failures.length === 0) throw new ToolError("the search ran out of time before any provider answered; try again");
  throw new ToolError(`no search provider answered: ${failures.map(describe).join("; ")}`);
}

function describe(err: ProviderError): string {
  return `${err.provider}: ${err.message}`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
