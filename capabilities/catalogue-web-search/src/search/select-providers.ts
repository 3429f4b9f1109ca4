import { ToolError } from "@selu-catalogue/kit";
import type { HttpClient } from "@selu-catalogue/kit/egress";
import { braveProvider } from "./brave.js";
import { ProviderError } from "./provider-error.js";
import { parseSearxngUrl, searxngProvider } from "./searxng.js";
import { tavilyProvider } from "./tavily.js";
import type { Provider, ProviderName } from "./types.js";

/** The order providers are tried in when SEARCH_PROVIDERS is not set. */
export const DEFAULT_ORDER: readonly ProviderName[] = ["brave", "searxng", "tavily"];

const CREDENTIAL: Record<ProviderName, string> = { brave: "BRAVE_API_KEY", searxng: "SEARXNG_URL", tavily: "TAVILY_API_KEY" };

type Values = Readonly<Record<string, string | undefined>>;

/** Clients providers use: `public` has the SSRF guard; `operator` reaches what the operator configured (a LAN SearXNG). */
export interface ProviderClients {
  public: HttpClient;
  operator: HttpClient;
}

/**
 * The providers whose credentials are set, in SEARCH_PROVIDERS order (else {@link DEFAULT_ORDER}).
 * @throws {ToolError} when none is configured (naming the credentials) or SEARCH_PROVIDERS is malformed.
 */
export function selectProviders(values: Values, clients: ProviderClients, timeoutMs: number): Provider[] {
  const order = readOrder(values.SEARCH_PROVIDERS);
  const providers: Provider[] = [];
  for (const name of order) {
    const value = values[CREDENTIAL[name]]?.trim();
    if (!value) continue;
    if (/[\r\n\0]/.test(value)) throw new ToolError(`credential ${CREDENTIAL[name]} must be one line; fix it in Selu's credentials`);
    if (name === "brave") providers.push(braveProvider(clients.public, value, timeoutMs));
    if (name === "tavily") providers.push(tavilyProvider(clients.public, value, timeoutMs));
    if (name === "searxng") {
      try {
        providers.push(searxngProvider(clients.operator, parseSearxngUrl(value), timeoutMs));
      } catch (err) {
        if (err instanceof ProviderError) throw new ToolError(err.message);
        throw err;
      }
    }
  }
  if (providers.length === 0) {
    const named = order.map((n) => CREDENTIAL[n]);
    throw new ToolError(
      `no search provider is configured: an administrator sets ${named.join(", ")} or more in Selu's credentials for this capability ` +
        "(Brave: https://api-dashboard.search.brave.com, Tavily: https://app.tavily.com, SearXNG: your own instance with the JSON format enabled)",
    );
  }
  return providers;
}

function readOrder(raw: string | undefined): readonly ProviderName[] {
  if (!raw?.trim()) return DEFAULT_ORDER;
  const names = raw
    .split(",")
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  const order: ProviderName[] = [];
  for (const name of names) {
    if (!(DEFAULT_ORDER as readonly string[]).includes(name)) {
      throw new ToolError(`credential SEARCH_PROVIDERS names an unknown provider ${JSON.stringify(name.slice(0, 40))}; use a comma-separated list of ${DEFAULT_ORDER.join(", ")}`);
    }
    if (!order.includes(name as ProviderName)) order.push(name as ProviderName);
  }
  return order;
}
