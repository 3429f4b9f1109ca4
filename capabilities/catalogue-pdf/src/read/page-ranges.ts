import { ToolError } from "@selu-catalogue/kit";

/** How page ranges are written, for schema descriptions and errors. */
export const PAGE_RANGES_HELP = 'page numbers from 1, e.g. "1-3,7,10-" ("10-" means 10 to the end)';

export const PAGE_RANGES_PATTERN = /^\s*\d+\s*(-\s*\d*\s*)?(,\s*\d+\s*(-\s*\d*\s*)?)*$/;

/** How {@link parsePageRanges} bounds what it is asked for. */
export interface PageRangeOptions {
  /** The most pages the ranges may ask for in all. */
  maxPages?: number;
  /** The error for asking more than `maxPages` (given the count asked for). */
  tooMany?: (count: number) => Error;
  /**
   * Cut the ranges to the document (pages past its end left out) instead of refusing them: one range
   * for several files of different lengths.
   */
  clip?: boolean;
}

/**
 * Turns a range list such as "1-3,7,10-" into 0-based page indexes, in the order written (duplicates
 * kept, as a person asking for "1,1" wants the page twice). Throws naming `field` when a page is outside
 * the document (unless `clip`), and `tooMany(count)` as soon as the pages asked for pass `maxPages`,
 * before expanding them ("1-,1-,1-..." on a long document would otherwise build millions of indexes).
 */
export function parsePageRanges(spec: string, pageCount: number, field: string, options: PageRangeOptions = {}): number[] {
  const maxPages = options.maxPages ?? Number.POSITIVE_INFINITY;
  const tooMany = options.tooMany ?? ((count: number) => new ToolError(`${field}: asks for ${count} pages, more than ${maxPages}; give a smaller range`));
  if (!PAGE_RANGES_PATTERN.test(spec)) throw new ToolError(`${field}: ${JSON.stringify(spec)} is not a page range; expected ${PAGE_RANGES_HELP}`);
  const pages: number[] = [];
  for (const part of spec.split(",")) {
    const [fromText, toText] = part.split("-").map((s) => s.trim());
    const from = Number(fromText);
    const open = toText === "";
    let to = toText === undefined ? from : open ? Math.max(pageCount, from) : Number(toText);
    if (from < 1 || to < 1) throw new ToolError(`${field}: pages are numbered from 1`);
    if (from > to) {
      const reverse = from - to < 10 ? Array.from({ length: from - to + 1 }, (_, i) => from - i).join(",") : `${from},${from - 1},…,${to}`;
      throw new ToolError(`${field}: ${part.trim()} runs backwards; write ${to}-${from}, or ${reverse} for the pages in reverse order`);
    }
    if (to > pageCount) {
      if (!options.clip) throw new ToolError(`${field}: asks for page ${open ? from : to}, but the document has ${pageCount} page${pageCount === 1 ? "" : "s"}`);
      to = pageCount;
    }
    if (from > to) continue;
    if (pages.length + (to - from + 1) > maxPages) throw tooMany(pages.length + (to - from + 1));
    for (let p = from; p <= to; p++) pages.push(p - 1);
  }
  return pages;
}
