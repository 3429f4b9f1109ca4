import { describe, expect, it } from "vitest";
import { linearRegex } from "./linear-regex.js";

const matches = (pattern: string, text: string, regex = true, caseSensitive = false) => linearRegex(pattern, { regex, caseSensitive }).test(text);

describe("linearRegex", () => {
  it("folds letters for case-insensitive search, keeping escapes like \\W and \\d", () => {
    expect(matches("hello\\W+world", "HELLO, World")).toBe(true);
    expect(matches("\\d+ items", "12 ITEMS")).toBe(true);
    expect(matches("[a-c]x", "Bx")).toBe(true);
    expect(matches("grüße", "GRÜSSE")).toBe(false); // ß has no one-letter upper case; ü folds
    expect(matches("grü", "GRÜ")).toBe(true);
  });

  it("searches literal text with regex characters as themselves", () => {
    expect(matches("a.b(c)", "xA.B(C)y", false)).toBe(true);
    expect(matches("a.b(c)", "axb(c)", false)).toBe(false);
  });

  it("refuses backreferences and lookaround, naming the pattern", () => {
    expect(() => linearRegex("(a)\\1", { regex: true, caseSensitive: true })).toThrow(/^pattern: uses backreferences or lookaround/);
    expect(() => linearRegex("a(?=b)", { regex: true, caseSensitive: true })).toThrow(/^pattern: uses backreferences or lookaround/);
    expect(() => linearRegex("a(", { regex: true, caseSensitive: true })).toThrow(/^pattern: is invalid/);
  });

  it("answers a catastrophic pattern in linear time (falls back from backtracking)", () => {
    const started = Date.now();
    expect(linearRegex("(a+)+$", { regex: true, caseSensitive: true }).test(`${"a".repeat(40_000)}!`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
