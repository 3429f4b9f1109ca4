/** Bounds of the web-search capability; each is stated in the README and enforced with an error naming it. */
export const WEB_LIMITS = {
  /** Characters of a search query (Brave's limit; the others accept it too). */
  maxQueryChars: 400,
  /** Results one search returns (Brave and Tavily stop at 20). */
  maxCount: 20,
  /** Result pages a search can go to (Brave's offset stops at 9). */
  maxPage: 10,
  /** Sites in `sites` or `exclude_sites`. */
  maxSites: 10,
  /** Time one search call may take, fallbacks and Retry-After waits included, in ms. */
  searchDeadlineMs: 30_000,
  /** Time one provider request may take before the next provider is tried, in ms. */
  providerTimeoutMs: 10_000,
  /** Longest Retry-After a search waits for within its deadline, in ms. */
  maxRetryAfterMs: 10_000,
  /** Consecutive failures after which a provider is skipped for `providerCooldownMs`. */
  providerFailureThreshold: 3,
  providerCooldownMs: 60_000,
  /** Characters of one snippet and of one extra snippet. */
  maxSnippetChars: 600,
  /** Bytes of a page body fetch_page reads; reading stops past it. */
  maxPageBytes: 4 * 1024 * 1024,
  /** Time fetch_page may take, redirects included, in ms. */
  fetchDeadlineMs: 45_000,
  /** Requests per fetch_page call, the first included (so at most 5 redirects). */
  maxRequests: 6,
  /** Characters of page content fetch_page returns by default and at most. */
  defaultPageChars: 20_000,
  maxPageChars: 40_000,
  /** Outgoing links listed per page. */
  maxLinks: 40,
  /** Characters of a link's text. */
  maxLinkTextChars: 80,
  /** Pages of a PDF whose text fetch_page extracts. */
  maxPdfPages: 200,
  /**
   * Bytes of a result as JSON (UTF-8): under Selu's 49,152-byte cut with room for the artifact rewrite
   * and the orchestrator's own framing.
   */
  maxResultBytes: 48_000,
  /** Characters of a URL argument. */
  maxUrlChars: 2_048,
} as const;
