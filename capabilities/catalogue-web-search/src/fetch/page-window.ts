import { jsonBytes, ToolError } from "@selu-catalogue/kit";

/** The part of a page's text one result carries. */
export interface PageWindow {
  content: string;
  start_char: number;
  next_start_char: number | null;
  total_chars: number | null;
}

/**
 * Cuts `text` to the window [start, start + maxChars), never splitting a surrogate pair, then shrinks
 * it (and drops links) until `build(window)` fits in `maxBytes` of JSON: characters outside ASCII take
 * up to four bytes, and escapes more, so a character cap alone can't keep Selu's byte bound.
 * @throws {ToolError} when `start` is past the end.
 */
export function fitWindow<R>(text: string, start: number, maxChars: number, complete: boolean, maxBytes: number, build: (window: PageWindow, linkCount: number) => R, linkCount: number): R {
  if (start > 0 && start >= text.length) {
    throw new ToolError(`start_char: the page has ${complete ? "only " : ""}${text.length} characters${complete ? "" : " readable here"}; use a smaller start_char`);
  }
  const windowOf = (length: number): PageWindow => {
    let end = Math.min(text.length, start + length);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
    const more = end < text.length || !complete;
    return { content: text.slice(start, end), start_char: start, next_start_char: more ? end : null, total_chars: complete ? text.length : null };
  };
  let length = Math.min(maxChars, text.length - start);
  let links = linkCount;
  let result = build(windowOf(length), links);
  while (jsonBytes(result) > maxBytes && links > 0) {
    links = Math.floor(links / 2);
    result = build(windowOf(length), links);
  }
  if (jsonBytes(result) <= maxBytes) return result;
  let low = 0;
  let high = length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (jsonBytes(build(windowOf(mid), links)) <= maxBytes) low = mid;
    else high = mid - 1;
  }
  length = low;
  return build(windowOf(length), links);
}
