import { ToolError } from "@selu-catalogue/kit";

/** How page ranges are written, for schema descriptions and errors. */
export const PAGE_RANGES_HELP = 'page numbers from 1, e.g. "1-3,7,10-" ("10-" means 10 to the end)';

export const PAGE_RANGES_PATTERN = /^\s*\d+\s*(-\s*\d*\s*)?(,\s*\d+\s*(-\s*\d*\s*)?)*$/;

/**
 * Turns a range list such as "1-3,7,10-" into 0-based page indexes, in the order written (duplicates
 * kept, as a person asking for "1,1" wants the page twice). Throws naming `field` when a page is outside
 * the document, and `tooMany(count)` as soon as the pages asked for pass `maxPages`, before expanding
 * them ("1-,1-,1-..." on a long document would otherwise build millions of indexes).
 */
export function parsePageRanges(
  spec: string,
  pageCount: number,
  field: string,
  maxPages = Number.POSITIVE_INFINITY,
  tooMany: (count: number) => Error = (count) => new ToolError(`${field}: asks for ${count} pages, more than ${maxPages}; give a smaller range`),
): number[] {
  if (!PAGE_RANGES_PATTERN.test(spec)) throw new ToolError(`${field}: ${JSON.stringify(spec)} is not a page range; expected ${PAGE_RANGES_HELP}`);
  const pages: number[] = [];
  for (const part of spec.split(",")) {
    const [fromText, toText] = part.split("-").map((s) => s.trim());
    const from = Number(fromText);
    const to = toText === undefined ? from : toText === "" ? pageCount : Number(toText);
    if (from < 1 || to < 1) throw new ToolError(`${field}: pages are numbered from 1`);
    if (from > to) throw new ToolError(`${field}: ${part.trim()} runs backwards; write the lower page first`);
    if (to > pageCount) {
      throw new ToolError(`${field}: asks for page ${to}, but the document has ${pageCount} page${pageCount === 1 ? "" : "s"}`);
    }
    if (pages.length + (to - from + 1) > maxPages) throw tooMany(pages.length + (to - from + 1));
    for (let p = from; p <= to; p++) pages.push(p - 1);
  }
  return pages;
}
