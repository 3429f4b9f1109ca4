import { describe, expect, it } from "vitest";
import { parsePageRanges } from "./page-ranges.js";

describe("parsePageRanges", () => {
  it("reads single pages, ranges and open ranges in the order written", () => {
    expect(parsePageRanges("3, 1-2, 9-", 10, "pages")).toEqual([2, 0, 1, 8, 9]);
  });

  it("keeps repeated pages", () => {
    expect(parsePageRanges("1,1", 3, "pages")).toEqual([0, 0]);
  });

  it("refuses page 0, backwards ranges, pages past the end and words, naming the field", () => {
    expect(() => parsePageRanges("0", 3, "pages")).toThrow("pages: pages are numbered from 1");
    expect(() => parsePageRanges("3-1", 3, "attachments[1].pages")).toThrow("attachments[1].pages: 3-1 runs backwards");
    expect(() => parsePageRanges("2-4", 3, "pages")).toThrow("pages: asks for page 4, but the document has 3 pages");
    expect(() => parsePageRanges("all", 3, "pages")).toThrow(/pages: "all" is not a page range/);
    // An open range starting past the end asks for its first page (it once read as running backwards).
    expect(() => parsePageRanges("10-", 5, "pages")).toThrow("pages: asks for page 10, but the document has 5 pages");
  });

  it("cuts ranges to the document when told to clip (one range for files of different lengths)", () => {
    expect(parsePageRanges("2-", 1, "pages", { clip: true })).toEqual([]);
    expect(parsePageRanges("1-3,5,9-", 4, "pages", { clip: true })).toEqual([0, 1, 2]);
    expect(() => parsePageRanges("3-1", 4, "pages", { clip: true })).toThrow("pages: 3-1 runs backwards");
  });

  it("stops at the page cap before expanding the ranges, however many repeats are asked for", () => {
    const manyTimes = Array.from({ length: 66 }, () => "1-").join(",");
    expect(() => parsePageRanges(manyTimes, 100_000, "pages", { maxPages: 1_000 })).toThrow("pages: asks for 100000 pages, more than 1000; give a smaller range");
    expect(parsePageRanges("1-2,1-2", 5, "pages", { maxPages: 4 })).toEqual([0, 1, 0, 1]);
    expect(() => parsePageRanges("1-2,1-2,1", 5, "pages", { maxPages: 4 })).toThrow("pages: asks for 5 pages, more than 4");
  });
});
