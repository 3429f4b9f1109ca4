import { describe, expect, it } from "vitest";
import { fontRuns } from "./font-runs.js";
import { directionOf, RIGHT_TO_LEFT, type ScaledRun, type ShapedRun } from "./shaping.js";

const layout = (text: string, features?: string[]) => {
  const [run] = fontRuns(text, "regular");
  return (run!.font as unknown as { layout(text: string, features?: string[]): ShapedRun }).layout(text, features);
};

describe("shaping with HarfBuzz", () => {
  it("forms the fi ligature in DejaVu, one glyph standing for both letters", () => {
    const run = layout("fit");
    expect(run.glyphs.map((g) => String.fromCodePoint(...g.codePoints))).toEqual(["fi", "t"]);
  });

  it("gives one glyph drawn for different characters a separate id for each (Arabic letters told apart by dots)", () => {
    // Noto Sans Arabic draws initial ب and ت with one dotless glyph plus a dot glyph.
    const base = (word: string) => layout(word).glyphs.find((g) => g.codePoints.length > 0)!;
    const beh = base("ببب");
    const teh = base("تتت");
    expect(beh.id % 0x10000).toBe(teh.id % 0x10000);
    expect(beh.id).not.toBe(teh.id);
    expect([beh.codePoints, teh.codePoints]).toEqual([[0x628], [0x62a]]);
  });

  it("returns fresh positions on every call (pdfkit scales them in place)", () => {
    const a = layout("cache");
    a.positions[0]!.xAdvance *= 2;
    expect(layout("cache").positions[0]!.xAdvance).toBe(a.positions[0]!.xAdvance / 2);
  });

  it("shapes right to left by the first strong letter, or when asked", () => {
    expect(directionOf("123 مرحبا abc")).toBe("rtl");
    expect(directionOf("abc مرحبا")).toBe("ltr");
    expect(directionOf("(")).toBe("ltr");
    // A bracket in right-to-left text is mirrored by HarfBuzz but still copies as the bracket written.
    const mirrored = layout("(", [RIGHT_TO_LEFT]).glyphs[0]!;
    expect(mirrored.codePoints).toEqual([0x28]);
    expect(mirrored.id % 0x10000).toBe(layout(")").glyphs[0]!.id % 0x10000);
  });

  it("gives pdfkit's scaled run (as its layoutRun makes it) from a cache shared by every document", () => {
    const [run] = fontRuns("Wohnungsübergabe", "regular");
    const face = run!.font as unknown as { unitsPerEm: number; layoutScaled(text: string): ScaledRun };
    const scale = 1000 / face.unitsPerEm;
    const unscaled = layout("Wohnungsübergabe");
    const scaled = face.layoutScaled("Wohnungsübergabe");
    expect(scaled.glyphs).toEqual(unscaled.glyphs);
    expect(scaled.positions).toEqual(
      unscaled.positions.map((p, i) => ({
        xAdvance: p.xAdvance * scale,
        yAdvance: p.yAdvance * scale,
        xOffset: p.xOffset * scale,
        yOffset: p.yOffset * scale,
        advanceWidth: unscaled.glyphs[i]!.advanceWidth * scale,
      })),
    );
    expect(scaled.advanceWidth).toBe(unscaled.positions.reduce((width, p) => width + p.xAdvance * scale, 0));
    expect(face.layoutScaled("Wohnungsübergabe")).toBe(scaled);
  });
});
