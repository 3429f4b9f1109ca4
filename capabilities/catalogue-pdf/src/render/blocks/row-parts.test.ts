import { describe, expect, it } from "vitest";
import type { Run } from "../../document/inline.js";
import { cutRuns, fittingPart } from "./row-parts.js";

const run = (text: string, bold = false): Run => ({ text, bold, italic: false, code: false });
const text = (runs: readonly Run[]) => runs.map((r) => r.text).join("");

describe("cutRuns", () => {
  it("cuts inside a run, keeps each side's styles and drops the space at the cut", () => {
    const [before, after] = cutRuns([run("plain "), run("bold words", true), run(" tail")], 11);
    expect(before).toEqual([run("plain "), run("bold ", true)]);
    expect(after).toEqual([run("words", true), run(" tail")]);
    expect(cutRuns([run("one "), run("  "), run("two")], 4)[1]).toEqual([run("two")]);
  });
});

describe("fittingPart", () => {
  // A stand-in for a row's height: one unit a character.
  const height = (runs: readonly Run[]) => text(runs).length;

  it("takes the most that fits, cut where a line may break", () => {
    const [part, rest] = fittingPart([run("alpha beta gamma delta")], 12, height)!;
    expect(text(part)).toBe("alpha beta ");
    expect(text(rest)).toBe("gamma delta");
  });

  it("takes all that fits whole, cuts between characters when no word fits, and gives nothing when no character does", () => {
    expect(fittingPart([run("short")], 10, height)).toEqual([[run("short")], []]);
    expect(fittingPart([run("unbreakable words")], 5, height)).toEqual([[run("unbre")], [run("akable words")]]);
    // A character outside the BMP is not cut in two.
    expect(fittingPart([run("a😀b")], 2, height)).toEqual([[run("a")], [run("😀b")]]);
    expect(fittingPart([run("abc")], 0, height)).toBeUndefined();
    // A letter keeps its combining accent.
    expect(fittingPart([run("a\u0301".repeat(3))], 3, height)).toEqual([[run("a\u0301")], [run("a\u0301a\u0301")]]);
  });

  it("cuts Thai between words, which it writes without spaces", () => {
    const [part] = fittingPart([run("ภาษาไทยภาษาไทย")], 10, height)!;
    expect(text(part)).toBe("ภาษาไทย");
  });

  it("cuts between ideographs, which have no spaces", () => {
    const [part] = fittingPart([run("这是一个很长的中文段落")], 4, height)!;
    expect(text(part)).toBe("这是一个");
  });
});
