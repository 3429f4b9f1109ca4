import { describe, expect, it } from "vitest";
import { globMatcher } from "./glob.js";

describe("globMatcher", () => {
  it("matches a name at any depth when the pattern has no slash", () => {
    const m = globMatcher("*.ts");
    expect(["a.ts", "src/a.ts", "src/lib/b.ts"].every(m)).toBe(true);
    expect(m("a.tsx")).toBe(false);
  });

  it("anchors patterns with a slash, with ** across directories", () => {
    const m = globMatcher("src/**/*.md");
    expect(m("src/a.md")).toBe(true);
    expect(m("src/x/y/a.md")).toBe(true);
    expect(m("docs/src/a.md")).toBe(false);
  });

  it("supports ?, classes, negated classes and alternatives, and treats regex characters literally", () => {
    expect(globMatcher("file-?.{txt,csv}")("dir/file-1.csv")).toBe(true);
    expect(globMatcher("[!a]*")("b.txt")).toBe(true);
    expect(globMatcher("[!a]*")("a.txt")).toBe(false);
    expect(globMatcher("a+b(1).txt")("a+b(1).txt")).toBe(true);
    expect(globMatcher("a+b(1).txt")("aab1.txt")).toBe(false);
  });
});
