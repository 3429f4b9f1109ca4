import { describe, expect, it } from "vitest";
import { cutToJsonBytes, itemsWithin, MAX_RESULT_BYTES, serializeWithin, SHORTENED_MARKER, shortenString } from "./result-bound.js";

const ref = () => "abcd1234";

describe("serializeWithin", () => {
  it("sends a result within the bound as it is", () => {
    expect(serializeWithin("t", { text: "é".repeat(100) }, undefined, ref).toString()).toBe(JSON.stringify({ text: "é".repeat(100) }));
  });

  it("refuses a result over 49,152 UTF-8 bytes as a bug of the tool, with a reference", () => {
    // 24,600 two-byte characters: under 49,152 characters, over 49,152 bytes (the case Selu panics on).
    expect(() => serializeWithin("get_message", { body: "é".repeat(24_600) }, undefined, ref)).toThrow(
      "get_message made a result of 49,211 bytes, over the 49,152 bytes Selu accepts; this is a bug in the capability, not in your request (reference abcd1234)",
    );
  });

  it("uses the tool's shortening strategy, and refuses when even that doesn't fit", () => {
    const fitted = serializeWithin("t", { body: "日本".repeat(20_000), cut: false }, shortenString("body", { flag: "cut" }), ref);
    expect(fitted.byteLength).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(fitted.byteLength).toBeGreaterThan(MAX_RESULT_BYTES - 8);
    const parsed = JSON.parse(fitted.toString("utf8"));
    expect(parsed.cut).toBe(true);
    expect(parsed.body.endsWith(SHORTENED_MARKER)).toBe(true);
    expect(() => serializeWithin("t", { a: "x".repeat(60_000) }, (r) => r, ref)).toThrow(/over the 49,152 bytes/);
  });
});

describe("cutToJsonBytes", () => {
  it("never splits a character or a surrogate pair, counting JSON escapes", () => {
    expect(cutToJsonBytes("aé", 2)).toBe("a");
    expect(cutToJsonBytes("a😀b", 4)).toBe("a");
    expect(cutToJsonBytes('a"b', 3)).toBe('a"');
    expect(cutToJsonBytes("abc", 10)).toBe("abc");
  });
});

describe("itemsWithin", () => {
  it("counts the leading items that fit as a JSON array", () => {
    expect(itemsWithin(["ab", "cd", "ef"], 2)).toBe(0);
    expect(itemsWithin(["ab", "cd", "ef"], 6)).toBe(1);
    expect(itemsWithin(["ab", "cd", "ef"], 11)).toBe(2);
    expect(itemsWithin(["ab", "cd", "ef"], 16)).toBe(3);
  });
});
