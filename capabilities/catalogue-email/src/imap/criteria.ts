import { ToolError } from "@selu-catalogue/kit";
import type { SearchObject } from "imapflow";

/** The filters list_messages and search_messages share. */
export interface SharedFilters {
  unseen_only: boolean;
  since?: string | undefined;
  before?: string | undefined;
}

/**
 * IMAP SEARCH criteria: the tool's own `criteria` plus the shared filters, or ALL when nothing narrows the
 * search. A `before` that is not after `since` is refused, since it would match nothing.
 */
export function searchCriteria(filters: SharedFilters, criteria: SearchObject = {}): SearchObject {
  const { since, before } = filters;
  if (since && before && before <= since) {
    throw new ToolError(`before (${before}) must be a later day than since (${since}); before is exclusive`);
  }
  const query: SearchObject = { ...criteria };
  if (filters.unseen_only) query.seen = false;
  if (since) query.since = imapDay(since);
  if (before) query.before = imapDay(before);
  if (Object.keys(query).length === 0) query.all = true;
  return query;
}

/** IMAP SEARCH dates are days; `YYYY-MM-DD` as midnight UTC. */
function imapDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}
