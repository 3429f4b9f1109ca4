import { ToolError } from "@selu-catalogue/kit";
import { z } from "zod";
import { WEB_LIMITS } from "../limits.js";
import type { SearchQuery } from "../search/types.js";

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
// A host name as people write it for site:, without scheme or path.
const SITE = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

const site = z.string().regex(SITE, "a domain like example.org, without https:// or a path");

/** Arguments of web_search and news_search: one schema for both. */
export const searchInput = z.object({
  query: z.string().trim().min(1).max(WEB_LIMITS.maxQueryChars).describe("What to search for, as you would type it into a search engine"),
  count: z.number().int().min(1).max(WEB_LIMITS.maxCount).optional().describe("Results to return, 1 to 20 (default 10)"),
  page: z.number().int().min(1).max(WEB_LIMITS.maxPage).optional().describe("Result page from 1, for more results of the same query (default 1)"),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "a two-letter country code like us or de")
    .optional()
    .describe("Country to favour, as a two-letter code (ISO 3166-1), e.g. us, de"),
  language: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "a two-letter language code like en or fr")
    .optional()
    .describe("Language of the results, as a two-letter code (ISO 639-1), e.g. en, fr"),
  safe_search: z.enum(["off", "moderate", "strict"]).optional().describe("Adult-content filter (default: the provider's, usually moderate)"),
  freshness: z.enum(["day", "week", "month", "year"]).optional().describe("Only results from the last day, week, month or year"),
  date_from: z.string().regex(DATE, "a date as YYYY-MM-DD").optional().describe("Only results published on or after this date, YYYY-MM-DD"),
  date_to: z.string().regex(DATE, "a date as YYYY-MM-DD").optional().describe("Only results published on or before this date, YYYY-MM-DD"),
  sites: z.array(site).max(WEB_LIMITS.maxSites).optional().describe('Only results from these domains, e.g. ["nature.com"]'),
  exclude_sites: z.array(site).max(WEB_LIMITS.maxSites).optional().describe("No results from these domains"),
});

export type SearchArgs = z.output<typeof searchInput>;

/** The validated query; cross-field rules are checked here, naming the fields. */
export function toQuery(kind: SearchQuery["kind"], args: SearchArgs): SearchQuery {
  if (args.date_from && args.date_to && args.date_from > args.date_to) {
    throw new ToolError("date_from: is after date_to; give the earlier date first");
  }
  if (args.freshness && (args.date_from || args.date_to)) {
    throw new ToolError("freshness: give either freshness or date_from/date_to, not both");
  }
  return {
    kind,
    query: args.query,
    count: args.count ?? 10,
    page: args.page ?? 1,
    country: args.country?.toLowerCase(),
    language: args.language?.toLowerCase(),
    safeSearch: args.safe_search,
    freshness: args.freshness,
    dateFrom: args.date_from,
    dateTo: args.date_to,
    sites: (args.sites ?? []).map((s) => s.toLowerCase()),
    excludeSites: (args.exclude_sites ?? []).map((s) => s.toLowerCase()),
  };
}
