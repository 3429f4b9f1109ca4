import type { IncomingMessage, ServerResponse } from "node:http";

/** One request a provider double received. */
export interface ProviderRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
}

/** How a double answers: the documented success shape by default, or what a test sets. */
export type Responder = (req: ProviderRequest, res: ServerResponse) => void;

/** A provider double: what it received, and how it answers the next requests. */
export interface ProviderDouble {
  readonly requests: ProviderRequest[];
  respond: Responder;
  reset(): void;
}

export function providerDouble(success: Responder): ProviderDouble {
  const double: ProviderDouble = {
    requests: [],
    respond: success,
    reset() {
      double.requests.length = 0;
      double.respond = success;
    },
  };
  return double;
}

/** Serves a double: records the request, then lets its responder answer. */
export function handle(double: ProviderDouble) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "https://double.invalid");
      const recorded = { method: req.method ?? "", path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      double.requests.push(recorded);
      double.respond(recorded, res);
    });
  };
}

export const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(typeof body === "string" ? body : JSON.stringify(body));

/** Brave's documented answer (peers.md): web results under `web.results`, news under `results`. */
export const braveSuccess: Responder = (req, res) => {
  const q = req.query.get("q") ?? "";
  const count = Number(req.query.get("count") ?? 10);
  const items = Array.from({ length: count }, (_, i) => ({
    title: `<strong>${q}</strong> result ${i + 1}`,
    url: `https://site${i + 1}.example.com/${encodeURIComponent(q)}`,
    description: `About <strong>${q}</strong> &amp; more, number ${i + 1}.`,
    age: "2 days ago",
    page_age: "2026-11-21T08:00:00",
    language: "en",
    profile: { name: `Site ${i + 1}` },
    meta_url: { hostname: `site${i + 1}.example.com` },
    extra_snippets: [`Extra one about ${q}.`, `Extra two about ${q}.`],
  }));
  if (req.path.endsWith("/news/search")) return json(res, 200, { type: "news", query: { original: q }, results: items });
  json(res, 200, {
    type: "search",
    query: { original: q, more_results_available: true },
    web: { type: "search", results: items },
    infobox: { results: [{ title: "Selu", long_desc: "A self-hosted assistant.", url: "https://selu.example.org/" }] },
  });
};

/** SearXNG's documented answer (peers.md). */
export const searxngSuccess: Responder = (req, res) => {
  const q = req.query.get("q") ?? "";
  json(res, 200, {
    query: q,
    results: Array.from({ length: 25 }, (_, i) => ({
      url: `https://searx-hit${i + 1}.example.org/page`,
      title: `${q} hit ${i + 1}`,
      content: `Content for ${q} ${i + 1}`,
      engine: "duckduckgo",
      engines: ["duckduckgo", "bing"],
      score: 1 / (i + 1),
      category: req.query.get("categories") ?? "general",
      ...(i === 0 ? { publishedDate: "2026-11-20T10:00:00" } : {}),
    })),
    answers: [`An answer about ${q}`],
    infoboxes: [{ infobox: "Selu", id: "https://selu.example.org/", content: "Assistant software", urls: [] }],
    suggestions: [`${q} tutorial`, `${q} docs`],
    unresponsive_engines: [["google", "timeout"]],
  });
};

/** Tavily's documented answer. */
export const tavilySuccess: Responder = (req, res) => {
  const body = JSON.parse(req.body || "{}") as { query?: string; max_results?: number; topic?: string };
  const q = body.query ?? "";
  json(res, 200, {
    query: q,
    answer: `Tavily says: ${q}`,
    results: Array.from({ length: body.max_results ?? 5 }, (_, i) => ({
      title: `${q} tavily ${i + 1}`,
      url: `https://tavily-hit${i + 1}.example.net/`,
      content: `Tavily content ${i + 1}`,
      score: 0.9,
      ...(body.topic === "news" ? { published_date: "Fri, 20 Nov 2026 10:00:00 GMT" } : {}),
    })),
    response_time: 0.42,
  });
};
