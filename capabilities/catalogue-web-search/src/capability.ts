import { defineCapability } from "@selu-catalogue/kit";
import type { HttpClient, ProxyConfig } from "@selu-catalogue/kit/egress";
import { credentials } from "./credentials.js";
import { systemLookup, type LookupAll } from "./fetch/resolve-check.js";
import { WEB_LIMITS } from "./limits.js";
import { ProviderHealth } from "./search/provider-health.js";
import { fetchPageTool } from "./tools/fetch-page.js";
import { searchTool } from "./tools/search-tools.js";

/** Settings read once at the entrypoint (and set by tests). */
export interface WebSearchOptions {
  /** Selu's egress proxy, for the client that reaches an operator's LAN SearXNG (the kit's own client gets it from serve). */
  proxy?: ProxyConfig | undefined;
  /** Extra trusted CA certificates for that client (tests; production trusts the system roots). */
  ca?: string | Buffer | undefined;
  /** Resolver of fetch_page's DNS pre-check (default: the system's, as `dns.lookup`). */
  lookup?: LookupAll;
  /** Time one provider request may take (default {@link WEB_LIMITS.providerTimeoutMs}). */
  providerTimeoutMs?: number;
  /** Time fetch_page's DNS pre-check may take per host (default 2 s). */
  resolveTimeoutMs?: number;
}

const HTTP_TIMEOUTS = { connectMs: 10_000, headersMs: 20_000, bodyMs: 30_000 };

/** The web-search capability: web and news search over configured providers, and a guarded page reader. */
export function createWebSearch(options: WebSearchOptions = {}) {
  const health = new ProviderHealth({ threshold: WEB_LIMITS.providerFailureThreshold, cooldownMs: WEB_LIMITS.providerCooldownMs });
  let operator: Promise<HttpClient> | undefined;
  // Operator-configured targets (a SearXNG on the LAN, or every page when FETCH_ALLOW_PRIVATE_NETWORKS
  // is true) go through a client without the private-address guard; built on first use only.
  const operatorClient = () =>
    (operator ??= import("@selu-catalogue/kit/egress").then(({ createHttpClient }) =>
      createHttpClient({
        proxy: options.proxy,
        timeouts: HTTP_TIMEOUTS,
        maxResponseBytes: WEB_LIMITS.maxPageBytes,
        allowPrivateNetworks: true,
        userAgent: USER_AGENT,
        ...(options.ca ? { ca: options.ca } : {}),
      }),
    ));
  const providerTimeoutMs = options.providerTimeoutMs ?? WEB_LIMITS.providerTimeoutMs;
  return defineCapability({
    id: "catalogue-web-search",
    credentials,
    limits: { httpMaxResponseBytes: WEB_LIMITS.maxPageBytes, httpTimeouts: HTTP_TIMEOUTS },
    tools: (helpers) => ({
      web_search: searchTool("web", helpers, { health, operatorClient, providerTimeoutMs }),
      news_search: searchTool("news", helpers, { health, operatorClient, providerTimeoutMs }),
      fetch_page: fetchPageTool(helpers, { operatorClient, lookup: options.lookup ?? systemLookup, resolveTimeoutMs: options.resolveTimeoutMs ?? 2_000 }),
    }),
  });
}

const USER_AGENT = "selu-web-search";

export default createWebSearch();
