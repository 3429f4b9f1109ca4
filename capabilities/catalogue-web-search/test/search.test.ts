import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { json } from "./support/provider-doubles.js";
import { ALL_PROVIDERS, startSearchWorld, type SearchWorld } from "./support/world.js";

// Each provider at its production URL (api.search.brave.com, api.tavily.com, a SearXNG instance),
// reached through the egress proxy double and answered by a local HTTPS double in the provider's
// documented shape.
let world: SearchWorld;
beforeAll(async () => {
  world = await startSearchWorld({ providerTimeoutMs: 1_000 });
}, 30_000);
afterAll(async () => world?.close());
beforeEach(() => {
  world.brave.reset();
  world.searxng.reset();
  world.tavily.reset();
});

// Provider health is kept per key for the process: each test gets keys of its own, so one test's
// failures don't rest a provider for the next.
let serial = 0;
const fresh = () => {
  serial += 1;
  return { BRAVE_API_KEY: `BSA-test-key-${serial}`, SEARXNG_URL: `https://searx.example.org/s${serial}`, TAVILY_API_KEY: `tvly-test-key-${serial}` };
};
const only = (name: "brave" | "searxng" | "tavily", extra: Record<string, string> = {}) => {
  const key = ({ brave: "BRAVE_API_KEY", searxng: "SEARXNG_URL", tavily: "TAVILY_API_KEY" } as const)[name];
  return { [key]: fresh()[key], SEARCH_PROVIDERS: name, ...extra };
};

describe("Brave", () => {
  it("sends the query, filters and key as Brave documents them and normalises the answer", async () => {
    const result = await world.ok(
      "web_search",
      { query: "selu assistant", count: 3, page: 2, country: "DE", language: "de", safe_search: "strict", freshness: "week", sites: ["example.com"], exclude_sites: ["spam.example"] },
      only("brave"),
    );
    const req = world.brave.requests[0]!;
    expect(req.path).toBe("/res/v1/web/search");
    expect(req.headers["x-subscription-token"]).toMatch(/^BSA-test-key-\d+$/);
    expect(Object.fromEntries(req.query)).toEqual({
      q: "selu assistant site:example.com -site:spam.example",
      count: "3",
      offset: "1",
      country: "de",
      search_lang: "de",
      safesearch: "strict",
      freshness: "pw",
      extra_snippets: "true",
    });
    expect(result.provider).toBe("brave");
    expect(result.more_results).toBe(true);
    expect((result.results as unknown[]).length).toBe(3);
    expect((result.results as unknown[])[0]).toEqual({
      title: "selu assistant site:example.com -site:spam.example result 1",
      url: "https://site1.example.com/selu%20assistant%20site%3Aexample.com%20-site%3Aspam.example",
      snippet: "About selu assistant site:example.com -site:spam.example & more, number 1.",
      source: "Site 1",
      published: "2026-11-21T08:00:00",
      extra_snippets: ["Extra one about selu assistant site:example.com -site:spam.example.", "Extra two about selu assistant site:example.com -site:spam.example."],
    });
    expect(result.infobox).toEqual({ title: "Selu", description: "A self-hosted assistant.", url: "https://selu.example.org/" });
    expect(result.notice).toMatch(/untrusted/);
  });

  it("uses the news endpoint and a date range as Brave's freshness", async () => {
    await world.ok("news_search", { query: "elections", date_from: "2026-01-01", date_to: "2026-02-01" }, only("brave"));
    const req = world.brave.requests[0]!;
    expect(req.path).toBe("/res/v1/news/search");
    expect(req.query.get("freshness")).toBe("2026-01-01to2026-02-01");
  });

  it("answers an empty result list as no results, not as an error", async () => {
    world.brave.respond = (_req, res) => json(res, 200, { type: "search", query: { original: "x", more_results_available: false }, web: { results: [] } });
    const result = await world.ok("web_search", { query: "nothing at all" }, only("brave"));
    expect(result.results).toEqual([]);
    expect(result.more_results).toBe(false);
  });

  it("explains a rejected key (422 SUBSCRIPTION_TOKEN_INVALID) naming the credential", async () => {
    world.brave.respond = (_req, res) => json(res, 422, { type: "ErrorResponse", error: { code: "SUBSCRIPTION_TOKEN_INVALID", detail: "The provided subscription token is invalid.", status: 422 } });
    expect(await world.fails("web_search", { query: "q" }, only("brave"))).toContain("brave: Brave rejected the API key (HTTP 422); check BRAVE_API_KEY");
  });

  it("explains a 401 as a bad key", async () => {
    world.brave.respond = (_req, res) => json(res, 401, { error: { detail: "unauthorized" } });
    expect(await world.fails("web_search", { query: "q" }, only("brave"))).toContain("Brave rejected the API key (HTTP 401)");
  });

  it("explains a used-up quota", async () => {
    world.brave.respond = (_req, res) => json(res, 429, { error: { code: "QUOTA_LIMITED", detail: "Quota limit exceeded" } });
    expect(await world.fails("web_search", { query: "q" }, only("brave"))).toContain("Brave's quota for BRAVE_API_KEY is used up");
  });

  it("reports malformed JSON as the provider's fault", async () => {
    world.brave.respond = (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{not json");
    expect(await world.fails("web_search", { query: "q" }, only("brave"))).toContain("api.search.brave.com answered HTTP 200 with something that is not JSON");
  });
});

describe("SearXNG", () => {
  it("asks for format=json with its parameters and maps answers, infobox, suggestions and silent engines", async () => {
    const result = await world.ok("news_search", { query: "rust", count: 5, page: 3, language: "fr", safe_search: "off", freshness: "month", country: "fr" }, only("searxng"));
    const req = world.searxng.requests[0]!;
    expect(req.path).toMatch(/^\/s\d+\/search$/); // under the instance's base path
    expect(Object.fromEntries(req.query)).toEqual({ q: "rust", format: "json", pageno: "3", categories: "news", language: "fr", safesearch: "0", time_range: "month" });
    expect(result.provider).toBe("searxng");
    expect((result.results as unknown[]).length).toBe(5);
    expect((result.results as Record<string, unknown>[])[0]).toEqual({
      title: "rust hit 1",
      url: "https://searx-hit1.example.org/page",
      snippet: "Content for rust 1",
      source: "searx-hit1.example.org",
      published: "2026-11-20T10:00:00",
    });
    expect(result.answer).toBe("An answer about rust");
    expect(result.infobox).toEqual({ title: "Selu", description: "Assistant software", url: "https://selu.example.org/" });
    expect(result.suggestions).toEqual(["rust tutorial", "rust docs"]);
    expect(result.ignored_filters).toEqual(["country (SearXNG has no country filter: use language)"]);
    expect(result.notes).toEqual(["SearXNG engines that did not respond: google"]);
  });

  it("explains a 403 as the JSON format being disabled in settings.yml", async () => {
    world.searxng.respond = (_req, res) => res.writeHead(403, { "content-type": "text/html" }).end("<h1>Forbidden</h1>");
    expect(await world.fails("web_search", { query: "q" }, only("searxng"))).toContain("add json to search.formats in the instance's settings.yml");
  });

  it("refuses a SEARXNG_URL that is not https, naming the credential", async () => {
    expect(await world.fails("web_search", { query: "q" }, only("searxng", { SEARXNG_URL: "http://searx.example.org" }))).toContain("SEARXNG_URL must start with https://");
  });
});

describe("Tavily", () => {
  it("posts the query with a bearer key and maps answer and results", async () => {
    const result = await world.ok("news_search", { query: "climate", count: 4, sites: ["nature.com"], freshness: "day" }, only("tavily"));
    const req = world.tavily.requests[0]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/search");
    expect(req.headers.authorization).toMatch(/^Bearer tvly-test-key-\d+$/);
    expect(JSON.parse(req.body)).toEqual({ query: "climate", max_results: 4, topic: "news", include_answer: true, time_range: "day", include_domains: ["nature.com"] });
    expect(result.answer).toBe("Tavily says: climate");
    expect((result.results as Record<string, unknown>[])[0]).toEqual({
      title: "climate tavily 1",
      url: "https://tavily-hit1.example.net/",
      snippet: "Tavily content 1",
      source: "tavily-hit1.example.net",
      published: "Fri, 20 Nov 2026 10:00:00 GMT",
    });
  });

  it("says which filters Tavily can't apply", async () => {
    const result = await world.ok("web_search", { query: "q", language: "de", safe_search: "strict" }, only("tavily"));
    expect(result.ignored_filters).toEqual(["language (Tavily has no language filter)", "safe_search (Tavily has no safe-search setting)"]);
  });

  it("explains a bad key (401) and a reached plan limit (432)", async () => {
    world.tavily.respond = (_req, res) => json(res, 401, { detail: { error: "Unauthorized: missing or invalid API key." } });
    expect(await world.fails("web_search", { query: "q" }, only("tavily"))).toContain("Tavily rejected the API key (HTTP 401); check TAVILY_API_KEY");
    world.tavily.respond = (_req, res) => json(res, 432, { detail: { error: "This request exceeds your plan's set usage limit." } });
    expect(await world.fails("web_search", { query: "q" }, only("tavily"))).toContain("Tavily's usage limit for TAVILY_API_KEY is reached (HTTP 432)");
  });
});

describe("fallback between providers", () => {
  it("falls back to the next provider when the first fails, saying why", async () => {
    world.brave.respond = (_req, res) => json(res, 500, { error: "boom" });
    const result = await world.ok("web_search", { query: "fallback" }, fresh());
    expect(result.provider).toBe("searxng");
    expect(result.providers_failed).toEqual(["brave: api.search.brave.com answered HTTP 500 (a fault on its side)"]);
  });

  it("falls back on 429 without Retry-After at once", async () => {
    world.brave.respond = (_req, res) => json(res, 429, { error: { code: "RATE_LIMITED" } });
    const started = Date.now();
    const result = await world.ok("web_search", { query: "q" }, { BRAVE_API_KEY: fresh().BRAVE_API_KEY, TAVILY_API_KEY: fresh().TAVILY_API_KEY });
    expect(result.provider).toBe("tavily");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("waits for a short Retry-After when no other provider is left, then succeeds", async () => {
    let calls = 0;
    world.tavily.respond = (req, res) => {
      calls += 1;
      if (calls === 1) return json(res, 429, { detail: { error: "slow down" } }, { "retry-after": "1" });
      json(res, 200, { query: "q", results: [{ title: "t", url: "https://a.example.net/", content: "c" }] });
    };
    const started = Date.now();
    const result = await world.ok("web_search", { query: "q" }, only("tavily"));
    expect(result.provider).toBe("tavily");
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("does not wait for a Retry-After longer than the deadline allows", async () => {
    world.tavily.respond = (_req, res) => json(res, 429, {}, { "retry-after": "3600" });
    const started = Date.now();
    expect(await world.fails("web_search", { query: "q" }, only("tavily"))).toContain("rate-limited the request with HTTP 429 (retry after 3600 s)");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("gives up on a stalled provider after its timeout and uses the next", async () => {
    world.brave.respond = () => {}; // never answers
    const started = Date.now();
    const result = await world.ok("web_search", { query: "q" }, { BRAVE_API_KEY: fresh().BRAVE_API_KEY, TAVILY_API_KEY: fresh().TAVILY_API_KEY });
    expect(result.provider).toBe("tavily");
    expect(result.providers_failed).toEqual(["brave: api.search.brave.com did not answer within 1 s"]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("uses a slow provider that answers within its timeout", async () => {
    world.brave.respond = (req, res) => setTimeout(() => json(res, 200, { query: {}, web: { results: [{ title: "slow", url: "https://slow.example.com/", description: "d" }] } }), 400);
    const result = await world.ok("web_search", { query: "q" }, only("brave"));
    expect((result.results as { title: string }[])[0]!.title).toBe("slow");
  });

  it("skips a provider that keeps failing for a while", async () => {
    world.brave.respond = (_req, res) => json(res, 503, {});
    const keys = { BRAVE_API_KEY: fresh().BRAVE_API_KEY, TAVILY_API_KEY: fresh().TAVILY_API_KEY };
    for (let i = 0; i < 4; i++) await world.ok("web_search", { query: `q${i}` }, keys);
    // Three failures in a row rest Brave: the fourth search went straight to Tavily.
    expect(world.brave.requests.length).toBe(3);
    world.brave.reset();
    const result = await world.ok("web_search", { query: "again" }, keys);
    expect(result.provider).toBe("tavily");
    expect(world.brave.requests.length).toBe(0);
  });

  it("follows SEARCH_PROVIDERS for the order", async () => {
    const result = await world.ok("web_search", { query: "q" }, { ...fresh(), SEARCH_PROVIDERS: "tavily,searxng" });
    expect(result.provider).toBe("tavily");
    expect(world.brave.requests.length).toBe(0);
  });

  it("lists every provider's failure when none answers", async () => {
    world.searxng.respond = (_req, res) => res.writeHead(403).end();
    world.tavily.respond = (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("[]");
    const error = await world.fails("web_search", { query: "q" }, { SEARXNG_URL: fresh().SEARXNG_URL, TAVILY_API_KEY: fresh().TAVILY_API_KEY });
    expect(error).toContain("no search provider answered: searxng: SearXNG refused format=json (HTTP 403)");
    expect(error).toContain("tavily: api.tavily.com answered JSON without a results list");
  });
});

describe("configuration and arguments", () => {
  it("names the credentials to set when no provider is configured", async () => {
    const error = await world.fails("web_search", { query: "q" }, {});
    expect(error).toContain("no search provider is configured: an administrator sets BRAVE_API_KEY, SEARXNG_URL, TAVILY_API_KEY");
  });

  it("refuses an unknown provider in SEARCH_PROVIDERS", async () => {
    expect(await world.fails("web_search", { query: "q" }, { ...ALL_PROVIDERS, SEARCH_PROVIDERS: "google" })).toContain('SEARCH_PROVIDERS names an unknown provider "google"');
  });

  it("refuses freshness together with a date range, and a range backwards", async () => {
    expect(await world.fails("web_search", { query: "q", freshness: "day", date_from: "2026-01-01" })).toContain("freshness: give either freshness or date_from/date_to");
    expect(await world.fails("web_search", { query: "q", date_from: "2026-02-01", date_to: "2026-01-01" })).toContain("date_from: is after date_to");
  });

  it("keeps 20 results with extra snippets within Selu's 49,152-byte bound", async () => {
    world.brave.respond = (req, res) =>
      json(res, 200, {
        query: {},
        web: {
          results: Array.from({ length: 20 }, (_, i) => ({
            title: "ü".repeat(300),
            url: `https://x${i}.example.com/`,
            description: "€".repeat(600),
            extra_snippets: Array.from({ length: 5 }, () => "漢".repeat(600)),
          })),
        },
      });
    const outcome = await world.call("web_search", { query: "q", count: 20 }, only("brave"));
    expect(outcome.ok).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(outcome.ok && outcome.result))).toBeLessThanOrEqual(49_152);
  });
});
