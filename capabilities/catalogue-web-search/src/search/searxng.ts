import type { HttpClient } from "@selu-catalogue/kit/egress";
import { WEB_LIMITS } from "../limits.js";
import { cleanText, hostOf } from "./clean-text.js";
import { ProviderError, healthKey } from "./provider-error.js";
import { arr, obj, providerRequest, str, type ExplainStatus } from "./provider-http.js";
import type { Provider, ProviderAnswer, SearchHit, SearchQuery } from "./types.js";

const SAFE = { off: "0", moderate: "1", strict: "2" } as const;

/**
 * Reads SEARXNG_URL: an https base URL (Selu's egress proxy only tunnels https), without query or
 * credentials. The path is kept, for instances served under one (`https://example.org/searx`).
 */
export function parseSearxngUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ProviderError("searxng", "config", "SEARXNG_URL is not a URL; set it to the instance's base URL, e.g. https://searx.example.org");
  }
  if (url.protocol !== "https:") {
    throw new ProviderError("searxng", "config", "SEARXNG_URL must start with https:// (Selu's egress proxy only tunnels https); put the instance behind TLS");
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ProviderError("searxng", "config", "SEARXNG_URL must be the instance's base URL without credentials, query or fragment");
  }
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

const explain: ExplainStatus = (status) => {
  // SearXNG answers 403 to format=json unless `json` is listed in search.formats of its settings.yml.
  if (status === 403) {
    return new ProviderError("searxng", "config", "SearXNG refused format=json (HTTP 403): add json to search.formats in the instance's settings.yml");
  }
  if (status === 429) return new ProviderError("searxng", "rate_limited", "SearXNG's limiter refused the request (HTTP 429); exempt Selu's address in its limiter settings");
  return undefined;
};

/** A SearXNG instance's JSON API: `GET <base>/search?format=json`. */
export function searxngProvider(http: HttpClient, base: URL, timeoutMs: number): Provider {
  return {
    name: "searxng",
    key: healthKey("searxng", base.href),
    async search(query, signal) {
      const url = new URL("search", base);
      const q = [query.query, ...query.sites.map((s) => `site:${s}`), ...query.excludeSites.map((s) => `-site:${s}`)].join(" ");
      const params = url.searchParams;
      params.set("q", q);
      params.set("format", "json");
      params.set("pageno", String(query.page));
      if (query.kind === "news") params.set("categories", "news");
      if (query.language) params.set("language", query.language);
      if (query.safeSearch) params.set("safesearch", SAFE[query.safeSearch]);
      const ignored: string[] = [];
      if (query.freshness) params.set("time_range", query.freshness);
      if (query.dateFrom || query.dateTo) ignored.push("date_from/date_to (SearXNG filters only by day, week, month or year: use freshness)");
      if (query.country) ignored.push("country (SearXNG has no country filter: use language)");
      const body = await providerRequest(http, "searxng", url, { headers: { accept: "application/json" }, timeoutMs, signal }, explain);
      return mapAnswer(body, query, ignored, url.host);
    },
  };
}

function mapAnswer(body: unknown, query: SearchQuery, ignored: string[], host: string): ProviderAnswer {
  const root = obj(body);
  if (!Array.isArray(root.results)) throw new ProviderError("searxng", "bad_response", `${host} answered JSON without a results list; is SEARXNG_URL a SearXNG instance?`);
  const results: SearchHit[] = [];
  // SearXNG has no count parameter: it answers one page of its engines' merged results; take count.
  for (const item of root.results) {
    if (results.length >= query.count) break;
    const r = obj(item);
    const url = str(r.url);
    if (!url) continue;
    const published = str(r.publishedDate);
    results.push({
      title: cleanText(str(r.title), 300),
      url,
      snippet: cleanText(str(r.content), WEB_LIMITS.maxSnippetChars),
      source: hostOf(url) || str(r.engine) || "",
      ...(published ? { published } : {}),
    });
  }
  const answer: ProviderAnswer = { results, moreResults: root.results.length > 0, ignored, notes: [] };
  const answers = arr(root.answers)
    .map((a) => cleanText(typeof a === "string" ? a : str(obj(a).answer), 1000))
    .filter(Boolean);
  if (answers[0]) answer.answer = answers[0];
  const box = obj(arr(root.infoboxes)[0]);
  const boxTitle = str(box.infobox);
  if (boxTitle) {
    const url = str(box.id) ?? str(obj(arr(box.urls)[0]).url);
    answer.infobox = { title: cleanText(boxTitle, 200), description: cleanText(str(box.content), 1000), ...(url?.startsWith("http") ? { url } : {}) };
  }
  const suggestions = arr(root.suggestions)
    .map((s) => cleanText(str(s), 200))
    .filter(Boolean)
    .slice(0, 10);
  if (suggestions.length > 0) answer.suggestions = suggestions;
  const silent = arr(root.unresponsive_engines)
    .map((e) => str(arr(e)[0]))
    .filter((e): e is string => Boolean(e));
  if (silent.length > 0) answer.notes.push(`SearXNG engines that did not respond: ${silent.slice(0, 10).join(", ")}`);
  return answer;
}
