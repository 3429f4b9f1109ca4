import type { CredentialSpecs } from "@selu-catalogue/kit";

/**
 * Operator settings, all system scope and optional: which are set decides which search providers run.
 * Selu hands a capability nothing but credentials (contract section 2), so switches live here too.
 */
export const credentials = {
  BRAVE_API_KEY: {
    scope: "system",
    required: false,
    description: "Brave Search API key (https://api-dashboard.search.brave.com): enables Brave for web_search and news_search",
  },
  SEARXNG_URL: {
    scope: "system",
    required: false,
    description: "Base URL of a SearXNG instance with the JSON format enabled, e.g. https://searx.example.org: enables SearXNG",
  },
  TAVILY_API_KEY: {
    scope: "system",
    required: false,
    description: "Tavily API key (https://app.tavily.com): enables Tavily for web_search and news_search",
  },
  SEARCH_PROVIDERS: {
    scope: "system",
    required: false,
    description: "Order in which configured providers are tried, comma-separated (default: brave,searxng,tavily)",
    type: "text",
  },
  FETCH_ALLOW_PRIVATE_NETWORKS: {
    scope: "system",
    required: false,
    description: "Set to true to let fetch_page read pages on private, loopback and link-local addresses (off by default: SSRF guard)",
    type: "text",
  },
} satisfies CredentialSpecs;

export type WebCredentials = typeof credentials;
