// Selu cuts a tool result past 49,152 bytes (and panics when the cut splits a character), so lists and
// strings that come from other people's mail (a newsletter to 500 recipients, a 998-character subject)
// are capped here, and what may still be too long is shortened by each tool's `fit` (the kit's bound).
import { itemsWithin, jsonBytes, type ToolResult } from "@selu-catalogue/kit";

/** The first `max` entries, and one "… and N more" entry when there were more. */
export function capList(list: readonly string[], max: number): string[] {
  return list.length <= max ? [...list] : [...list.slice(0, max), `… and ${list.length - max} more`];
}

/** The text cut to `max` characters with an ellipsis when longer. */
export function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * A `fit` for a page of messages (list_messages, search_messages): drops messages from the end until the
 * page fits, and points next_offset at the first dropped one, so the next page picks up there.
 */
export function fitPage<P extends ToolResult>(page: P, maxBytes: number): P {
  const messages = page.messages as unknown[];
  const offset = page.offset as number;
  const note = "fewer messages than asked for: the page was cut to fit the result limit; continue at next_offset";
  // next_offset written with as many digits as it can have, so the count below is an upper bound.
  const rest = jsonBytes({ ...page, messages: [], next_offset: offset + messages.length, note }) - 2;
  const kept = messages.slice(0, itemsWithin(messages, maxBytes - rest));
  return { ...page, messages: kept, next_offset: offset + kept.length, note };
}
