import type { HttpClient } from "@selu-catalogue/kit/egress";
import { WEB_LIMITS } from "../limits.js";
import { cleanText, hostOf } from "./clean-text.js";
import { ProviderError, healthKey } from "./provider-error.js";
import { arr, obj, providerRequest, str, type ExplainStatus } from "./provider-http.js";
import type { Provider, ProviderAnswer, SearchHit, SearchQuery } from "./types.js";

/** Brave Search API's production origin. */
export const BRAVE_ORIGIN = "https://api.search.brave.com";

const FRESHNESS = { day: "pd", week: "pw", month: "pm", year: "py" } as const;

const KEY_HELP = "check BRAVE_API_KEY in Selu's credentials (keys: https://api-dashboard.search.brave.com)";

/** Brave answers a bad or missing token with 422 SUBSCRIPTION_TOKEN_INVALID (401/403 on some plans), a used-up quota with 429 QUOTA_LIMITED. */
const explain: ExplainStatus = (status, detail, retryAfterMs) => {
  if (status === 401 || (status === 422 && /token/i.test(detail))) {
    return new ProviderError("brave", "auth", `Brave rejected the API key (HTTP ${status}); ${KEY_HELP}`);
  }
  if (status === 403) return new ProviderError("brave", "auth", `Brave refused the request (HTTP 403): the key's plan may not include this endpoint; ${KEY_HELP}`);
  if ((status === 429 || status === 402) && /quota/i.test(detail)) {
    return new ProviderError("brave", "quota", "Brave's quota for BRAVE_API_KEY is used up; raise the plan's limit or wait for the next period", { retryAfterMs });
  }
  return undefined;
};

/** Brave Search: `GET /res/v1/web/search` or `/res/v1/news/search` with `X-Subscription-Token`. */
export function braveProvider(http: HttpClient, apiKey: string, timeoutMs: number): Provider {
  return {
    name: "brave",
    key: healthKey("brave", apiKey),
    async search(query, signal) {
      const url = new URL(`${BRAVE_ORIGIN}/res/v1/${query.kind === "news" ? "news" : "web"}/search`);
      const q = [query.query, ...query.sites.map((s) => `site:${s}`), ...query.excludeSites.map((s) => `-site:${s}`)].join(" ");
      const params = url.searchParams;
      params.set("q", q);
      params.set("count", String(query.count));
      params.set("offset", String(query.page - 1));
      if (query.country) params.set("country", query.country);
      if (query.language) params.set("search_lang", query.language);
      if (query.safeSearch) params.set("safesearch", query.safeSearch);
      if (query.dateFrom || query.dateTo) params.set("freshness", `${query.dateFrom ?? "1970-01-01"}to${query.dateTo ?? today()}`);
      else if (query.freshness) params.set("freshness", FRESHNESS[query.freshness]);
      if (query.kind === "web") params.set("extra_snippets", "true");
      const headers = { accept: "application/json", "x-subscription-token": apiKey };
      const body = await providerRequest(http, "brave", url, { headers, timeoutMs, signal }, explain);
      return mapAnswer(body, query);
    },
  };
}

function mapAnswer(body: unknown, query: SearchQuery): ProviderAnswer {
  const root = obj(body);
  const section = query.kind === "news" ? root : obj(root.web);
  if (!Array.isArray(section.results) && !("query" in root)) {
    throw new ProviderError("brave", "bad_response", "api.search.brave.com answered JSON without results; its API may have changed");
  }
  const results: SearchHit[] = [];
  for (const item of arr(section.results)) {
    const r = obj(item);
    const url = str(r.url);
    if (!url) continue;
    const extra = arr(r.extra_snippets)
      .map((s) => cleanText(str(s), WEB_LIMITS.maxSnippetChars))
      .filter(Boolean)
      .slice(0, 5);
    const published = str(r.page_age) ?? str(r.age);
    results.push({
      title: cleanText(str(r.title), 300),
      url,
      snippet: cleanText(str(r.description), WEB_LIMITS.maxSnippetChars),
      source: str(obj(r.profile).name) ?? str(obj(r.meta_url).hostname) ?? hostOf(url),
      ...(published ? { published } : {}),
      ...(extra.length > 0 ? { extra_snippets: extra } : {}),
    });
  }
  const q = obj(root.query);
  const answer: ProviderAnswer = { results, moreResults: q.more_results_available === true, ignored: [], notes: [] };
  const altered = str(q.altered);
  if (altered) answer.alteredQuery = altered;
  const box = obj(arr(obj(root.infobox).results)[0]);
  const boxTitle = str(box.title);
  if (boxTitle) {
    const url = str(box.url);
    answer.infobox = { title: cleanText(boxTitle, 200), description: cleanText(str(box.long_desc) ?? str(box.description), 1000), ...(url ? { url } : {}) };
  }
  return answer;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}
