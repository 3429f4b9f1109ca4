import type { ToolDefinition, ToolHelpers } from "@selu-catalogue/kit";
import type { WebCredentials } from "../credentials.js";
import { WEB_LIMITS } from "../limits.js";
import type { ProviderHealth } from "../search/provider-health.js";
import { runSearch } from "../search/run-search.js";
import { selectProviders, type ProviderClients } from "../search/select-providers.js";
import type { HttpClient } from "@selu-catalogue/kit/egress";
import { searchInput, toQuery } from "./search-input.js";
import { searchResult } from "./search-result.js";

/** What the search tools share within one capability instance. */
export interface SearchDeps {
  health: ProviderHealth;
  /** The client that may reach private addresses, for an operator's LAN SearXNG. */
  operatorClient(): Promise<HttpClient>;
  providerTimeoutMs: number;
}

const DESCRIPTIONS = {
  web: "Searches the web and returns results as {title, url, snippet, source, published?, extra_snippets?}, plus the provider used, whether more results exist and, when the provider gives them, an answer, an infobox and suggestions. Filters: country, language, safe_search, freshness or date_from/date_to, sites and exclude_sites; page for more. Read a result in full with fetch_page.",
  news: "Searches recent news articles; the same result shape as web_search, with published dates where the provider has them. Use freshness (day, week) for what is new.",
} as const;

/** web_search or news_search: the same arguments and result shape, one provider chain. */
export function searchTool(kind: "web" | "news", { tool }: ToolHelpers<WebCredentials>, deps: SearchDeps): ToolDefinition<WebCredentials> {
  return tool({
    description: DESCRIPTIONS[kind],
    input: searchInput,
    policy: "allow",
    timeoutMs: WEB_LIMITS.searchDeadlineMs + 2_000,
    needs: [],
    async run(args, ctx) {
      const deadline = Date.now() + WEB_LIMITS.searchDeadlineMs;
      const query = toQuery(kind, args);
      const clients: ProviderClients = { public: ctx.http, operator: ctx.credentials.SEARXNG_URL ? await deps.operatorClient() : ctx.http };
      const providers = selectProviders(ctx.credentials, clients, deps.providerTimeoutMs);
      const outcome = await runSearch(providers, query, deps.health, ctx.signal, ctx.log, deadline);
      return searchResult(query, outcome);
    },
  });
}
