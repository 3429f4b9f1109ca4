/** Search providers, by the name operators write in SEARCH_PROVIDERS. */
export type ProviderName = "brave" | "searxng" | "tavily";

export type Freshness = "day" | "week" | "month" | "year";

/** One search as the tools take it, validated; providers map what they support and report what they don't. */
export interface SearchQuery {
  kind: "web" | "news";
  query: string;
  count: number;
  /** From 1. */
  page: number;
  /** ISO 3166-1 alpha-2, lowercase. */
  country?: string | undefined;
  /** ISO 639-1, lowercase. */
  language?: string | undefined;
  safeSearch?: "off" | "moderate" | "strict" | undefined;
  freshness?: Freshness | undefined;
  /** YYYY-MM-DD, inclusive. */
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  sites: readonly string[];
  excludeSites: readonly string[];
}

/** One result, the same whichever provider found it. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  /** The site or publisher. */
  source: string;
  /** When the page or article was published, as the provider gives it (ISO date or "2 days ago"). */
  published?: string;
  extra_snippets?: string[];
}

/** What a provider answered, normalised. */
export interface ProviderAnswer {
  results: SearchHit[];
  moreResults: boolean;
  answer?: string;
  infobox?: { title: string; description: string; url?: string };
  suggestions?: string[];
  /** The query the provider actually ran when it corrected the spelling. */
  alteredQuery?: string;
  /** Filters the provider could not apply, in words. */
  ignored: string[];
  /** Notes on partial answers (engines that did not respond). */
  notes: string[];
}

/** A provider adapter: one request for one query. */
export interface Provider {
  readonly name: ProviderName;
  /** The provider with its credential (hashed): health is kept per key, so a replaced key starts afresh. */
  readonly key: string;
  /** Runs the search; throws {@link ProviderError} for every failure. */
  search(query: SearchQuery, signal: AbortSignal): Promise<ProviderAnswer>;
}
