import { describe, expect, it } from "vitest";
import { breakableLongWords, hasLongWord, longWordPieces } from "./page.js";

describe("hasLongWord", () => {
  it("finds what /[^\\s\\u200B]{48,}/u finds: 48 characters between spaces, a surrogate pair one character", () => {
    // Letters, spaces of several kinds, zero-width spaces, emoji (pairs) and lone surrogates, mostly words near 48 long.
    const parts = ["a", "é", " ", "\u00a0", "\u200b", "\u3000", "😀", "\ud800", "\udc00", "x".repeat(20), "y".repeat(23), "😀".repeat(12)];
    let seed = 7;
    const next = () => {
      // xorshift32: the same texts every run
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    let long = 0;
    const differ: string[] = [];
    for (let n = 0; n < 3_000; n++) {
      let text = "";
      const length = next() % 16;
      for (let i = 0; i < length; i++) text += parts[next() % parts.length];
      const expected = /[^\s\u200B]{48,}/u.test(text);
      if (expected) long += 1;
      if (hasLongWord(text) !== expected) differ.push(text);
    }
    expect(differ).toEqual([]);
    expect(long).toBeGreaterThan(300); // both answers well represented
    expect(hasLongWord("x".repeat(47))).toBe(false);
    expect(hasLongWord("x".repeat(48))).toBe(true);
    expect(hasLongWord("😀".repeat(47))).toBe(false);
  });
});

describe("breakableLongWords", () => {
  it("breaks a long URL between its parts, a hash every 24 characters, and keeps every character", () => {
    const url = "https://docs.example-company.com/api/v2/reference/endpoints/customers";
    expect(longWordPieces(url)).toEqual(["https://docs.example-", "company.com/api/v2/", "reference/endpoints/customers"]);
    expect(breakableLongWords(`See ${url} now`)).toBe(`See ${longWordPieces(url).join("\u200B")} now`);
    const hash = "0123456789abcdef".repeat(4);
    expect(longWordPieces(hash)).toEqual([hash.slice(0, 24), hash.slice(24, 48), hash.slice(48)]);
    // A separator only in the first half of 24 does not make a piece that short.
    expect(longWordPieces(`ab-${"c".repeat(50)}`)).toEqual([`ab-${"c".repeat(21)}`, "c".repeat(24), "c".repeat(5)]);
    expect(breakableLongWords("short words stay")).toBe("short words stay");
  });
});
