import { describe, expect, it } from "vitest";
import { fitWindow, type PageWindow } from "./page-window.js";

const build = (window: PageWindow, links: number) => ({ ...window, links: Array.from({ length: links }, () => "https://example.org/a-link") });

describe("fitWindow", () => {
  it("returns the window from start_char with the next start", () => {
    expect(fitWindow("abcdefghij", 2, 3, true, 10_000, build, 0)).toEqual({ content: "cde", start_char: 2, next_start_char: 5, total_chars: 10, links: [] });
    expect(fitWindow("abcdefghij", 8, 5, true, 10_000, build, 0)).toMatchObject({ content: "ij", next_start_char: null });
  });

  it("keeps a next start and no total when the text is incomplete", () => {
    expect(fitWindow("abc", 0, 10, false, 10_000, build, 0)).toMatchObject({ content: "abc", next_start_char: 3, total_chars: null });
  });

  it("drops links first, then text, to fit the byte bound", () => {
    const fitted = fitWindow("é".repeat(1_000), 0, 1_000, true, 1_200, build, 20);
    expect(Buffer.byteLength(JSON.stringify(fitted))).toBeLessThanOrEqual(1_200);
    expect(fitted.links).toEqual([]);
    expect(fitted.next_start_char).toBe(fitted.content.length);
  });

  it("never splits a surrogate pair", () => {
    const fitted = fitWindow("😀".repeat(10), 0, 5, true, 10_000, build, 0);
    expect(fitted.content).toBe("😀😀");
  });

  it("refuses a start past the end", () => {
    expect(() => fitWindow("abc", 3, 10, true, 10_000, build, 0)).toThrow("start_char: the page has only 3 characters; use a smaller start_char");
  });
});
