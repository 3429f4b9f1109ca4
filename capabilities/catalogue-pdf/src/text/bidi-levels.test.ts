import bidiFactory from "bidi-js";
import { describe, expect, it } from "vitest";
import { embeddingLevels } from "./bidi-levels.js";
import { directionOf, hasRightToLeft, mostlyRightToLeft } from "./direction.js";

const levels = (text: string, direction: "ltr" | "rtl" | "auto" = "auto") => Array.from(embeddingLevels(text, direction).levels);

describe("embeddingLevels", () => {
  it("reads a right-to-left letter outside the BMP (Adlam) as right to left, both its UTF-16 units", () => {
    expect(levels("𞤀𞤣 abc")).toEqual([1, 1, 1, 1, 1, 2, 2, 2]);
    // bidi-js alone takes each surrogate for a left-to-right letter.
    expect(Array.from(bidiFactory().getEmbeddingLevels("𞤀𞤣 abc", "auto").levels)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it("reads an emoji as a neutral: after a Latin word at the end of an Arabic paragraph it takes the paragraph's direction", () => {
    // مرحبا Selu 🎉: the emoji follows the paragraph (level 1), not the Latin word before it (level 2).
    const text = "مرحبا Selu 🎉";
    expect(levels(text).slice(-2)).toEqual([1, 1]);
    expect(levels(text).slice(6, 10)).toEqual([2, 2, 2, 2]);
  });

  it("leaves text without characters outside the BMP to bidi-js as it is", () => {
    const text = "שלום 42 world";
    expect(levels(text)).toEqual(Array.from(bidiFactory().getEmbeddingLevels(text, "auto").levels));
  });
});

describe("direction", () => {
  it("counts Adlam letters as right to left, and no letter outside the right-to-left blocks", () => {
    expect(directionOf("𞤀𞤣𞤤𞤢𞤥 abc")).toBe("rtl");
    expect(directionOf("abc 𞤀𞤣𞤤𞤢𞤥")).toBe("ltr");
    expect(hasRightToLeft("𞤀")).toBe(true);
    expect(mostlyRightToLeft(["𞤀𞤣𞤤 ab"])).toBe(true);
  });
});
