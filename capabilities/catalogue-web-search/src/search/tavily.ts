import type { HttpClient } from "@selu-catalogue/kit/egress";
import { WEB_LIMITS } from "../limits.js";
import { cleanText, hostOf } from "./clean-text.js";
import { ProviderError, healthKey } from "./provider-error.js";
import { arr, obj, providerRequest, str, type ExplainStatus } from "./provider-http.js";
import type { Provider, ProviderAnswer, SearchHit, SearchQuery } from "./types.js";

/** Tavily's production origin. */
export const TAVILY_ORIGIN = "https://api.tavily.com";

const KEY_HELP = "check TAVILY_API_KEY in Selu's credentials (keys: https://app.tavily.com)";

// Tavily: 401 bad key, 432 plan or key limit reached, 433 pay-as-you-go limit reached, 429 rate limit.
const explain: ExplainStatus = (status, _detail, retryAfterMs) => {
  if (status === 401 || status === 403) return new ProviderError("tavily", "auth", `Tavily rejected the API key (HTTP ${status}); ${KEY_HELP}`);
  if (status === 432 || status === 433) {
    return new ProviderError("tavily", "quota", `Tavily's usage limit for TAVILY_API_KEY is reached (HTTP ${status}); raise the plan's limit at https://app.tavily.com`, { retryAfterMs });
  }
  return undefined;
};

/** Tavily Search: `POST /search` with the key as a bearer token. */
export function tavilyProvider(http: HttpClient, apiKey: string, timeoutMs: number): Provider {
  return {
    name: "tavily",
    key: healthKey("tavily", apiKey),
    async search(query, signal) {
      const ignored: string[] = [];
      // Tavily has no paging: a later page asks for more results and drops the earlier ones.
      const upTo = query.count * query.page;
      if (upTo > WEB_LIMITS.maxCount) ignored.push(`page (Tavily returns at most ${WEB_LIMITS.maxCount} results in all; ask for fewer per page)`);
      const body: Record<string, unknown> = {
        query: query.query,
        max_results: Math.min(upTo, WEB_LIMITS.maxCount),
        topic: query.kind === "news" ? "news" : "general",
        include_answer: true,
      };
      if (query.dateFrom) body.start_date = query.dateFrom;
      if (query.dateTo) body.end_date = query.dateTo;
      if (!query.dateFrom && !query.dateTo && query.freshness) body.time_range = query.freshness;
      if (query.sites.length > 0) body.include_domains = query.sites;
      if (query.excludeSites.length > 0) body.exclude_domains = query.excludeSites;
      if (query.country && query.kind === "web") body.country = query.country;
      else if (query.country) ignored.push("country (Tavily filters by country for web searches only)");
      if (query.language) ignored.push("language (Tavily has no language filter)");
      if (query.safeSearch) ignored.push("safe_search (Tavily has no safe-search setting)");
      const headers = { accept: "application/json", "content-type": "application/json", authorization: `Bearer ${apiKey}` };
      const url = new URL(`${TAVILY_ORIGIN}/search`);
      const answer = await providerRequest(http, "tavily", url, { method: "POST", headers, body: JSON.stringify(body), timeoutMs, signal }, explain);
      return mapAnswer(answer, query, ignored);
    },
  };
}

function mapAnswer(body: unknown, query: SearchQuery, ignored: string[]): ProviderAnswer {
  const root = obj(body);
  if (!Array.isArray(root.results)) throw new ProviderError("tavily", "bad_response", "api.tavily.com answered JSON without a results list; its API may have changed");
  const all: SearchHit[] = [];
  for (const item of root.results) {
    const r = obj(item);
    const url = str(r.url);
    if (!url) continue;
    const published = str(r.published_date);
    all.push({
      title: cleanText(str(r.title), 300),
      url,
      snippet: cleanText(str(r.content), WEB_LIMITS.maxSnippetChars),
      source: hostOf(url),
      ...(published ? { published } : {}),
    });
  }
  const results = all.slice((query.page - 1) * query.count, query.page * query.count);
  const answer: ProviderAnswer = { results, moreResults: false, ignored, notes: [] };
  const text = cleanText(str(root.answer), 2000);
  if (text) answer.answer = text;
  const followUps = arr(root.follow_up_questions)
    .map((s) => cleanText(str(s), 200))
    .filter(Boolean)
    .slice(0, 10);
  if (followUps.length > 0) answer.suggestions = followUps;
  return answer;
}
