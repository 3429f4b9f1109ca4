import { describe, expect, it } from "vitest";
import type { Run } from "../document/inline.js";
import { breakLines } from "./line-break.js";

const run = (text: string, bold = false): Run => ({ text, bold, italic: false, code: false });
// Every character one point wide (bold ones two), so the breaks are plain to see.
const measure = (text: string, face: string) => text.length * (face === "bold" ? 2 : 1);
const size = () => 10;
const texts = (lines: ReturnType<typeof breakLines>) => lines?.map((line) => line.runs.map((r) => r.text).join(""));

describe("breakLines", () => {
  it("breaks where the next word with its spaces no longer fits, a line's width leaving out its end spaces", () => {
    const lines = breakLines([run("aaa bbb ccc")], 8, size, measure);
    expect(texts(lines)).toEqual(["aaa bbb ", "ccc"]);
    expect(lines!.map((l) => l.width)).toEqual([7, 3]);
  });

  it("keeps a word whose parts are in different runs together, each part in its run's style", () => {
    const lines = breakLines([run("ab", true), run("cd ef")], 7, size, measure);
    expect(texts(lines)).toEqual(["abcd ", "ef"]);
    expect(lines![0]!.runs).toEqual([run("ab", true), run("cd ")]);
    expect(lines![0]!.width).toBe(6);
  });

  it("says which words a space follows (a new word is then shaped with it, once)", () => {
    const calls: [string, boolean | undefined][] = [];
    breakLines([run("one two-three  four")], 100, size, (text, face, _size, spaced) => (calls.push([text, spaced]), measure(text, face)));
    expect(calls.filter(([text]) => text.trim())).toEqual([
      ["one", true],
      ["two-", false],
      ["three", true],
      ["four", false],
    ]);
  });

  it("joins the pieces of one run on a line into one", () => {
    expect(breakLines([run("one two three")], 100, size, measure)![0]!.runs).toEqual([run("one two three")]);
  });

  it("ends a line at a hard line break, as pdfkit's wrapper: the line end neither drawn nor measured, a blank line kept", () => {
    const lines = breakLines([run("one \ntwo\r\n\nthree four\n")], 8, size, measure);
    expect(texts(lines)).toEqual(["one ", "two", "", "three ", "four"]);
    expect(lines!.map((l) => l.width)).toEqual([3, 3, 0, 5, 4]);
    expect(lines![2]!.runs).toEqual([]);
    // A line end in a run of its own, between two styles; one at the start is an empty first line.
    expect(breakLines([run("a", true), run("\n"), run("b", true)], 8, size, measure)!.map((l) => l.runs)).toEqual([[run("a", true)], [run("b", true)]]);
    expect(texts(breakLines([run("\nx")], 8, size, measure))).toEqual(["", "x"]);
  });

  it("leaves words wider than the line to pdfkit's wrapper", () => {
    expect(breakLines([run("a verylongword")], 8, size, measure)).toBeUndefined();
    // Words of 48 characters and more get pdfkit's break opportunities inside them (see page.ts).
    expect(breakLines([run(`see ${"x".repeat(48)}`)], 1_000, size, measure)).toBeUndefined();
  });
});

describe("breakLines across runs", () => {
  it("keeps a run's style across pieces of several runs and lines, and skips empty runs", () => {
    const lines = breakLines([run("aa "), run(""), run("bb", true), run("b cc dd"), run(" ee", true)], 6, size, measure);
    expect(lines!.map((line) => line.runs)).toEqual([[run("aa ")], [run("bb", true), run("b ")], [run("cc ")], [run("dd"), run(" ", true)], [run("ee", true)]]);
    expect(lines!.map((line) => line.width)).toEqual([2, 5, 2, 2, 4]);
  });
});
