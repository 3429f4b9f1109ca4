import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import * as hb from "harfbuzzjs";
import { describe, expect, it, vi } from "vitest";
import { fontPath } from "../render/fonts.js";
import { fontRuns } from "./font-runs.js";
import { latinTables } from "./simple-latin.js";
import { directionOf } from "./direction.js";
import { RIGHT_TO_LEFT, type ScaledRun, type ShapedRun, shapedFace, sharedRuns } from "./shaping.js";

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

  it("shapes a new word once: the word before its space is cut from the word with it, the same run as shaped alone", () => {
    const face = fontRuns("x", "regular")[0]!.font as unknown as { layoutScaled(text: string): ScaledRun };
    // Ligatures, kerning pairs, a word with its comma, a decomposed accent (a mark on its base), two
    // spaces; HarfBuzz shapes the fifth, the others are laid out without it (simple-latin.ts).
    for (const [word, shaped] of [
      ["office", 0],
      ["affluent", 0],
      ["AVATAR", 0],
      ["Tao,", 0],
      ["Wohnungsübergabe", 0],
      ["Cafe\u0301", 1],
      ["LTAVYW", 0],
    ] as const) {
      for (const spaces of [" ", "  "]) {
        sharedRuns.generation++; // every face starts afresh
        const addText = vi.spyOn(hb.Buffer.prototype, "addText");
        face.layoutScaled(`${word}${spaces}`);
        const cut = face.layoutScaled(word);
        expect(addText).toHaveBeenCalledTimes(shaped);
        addText.mockRestore();
        sharedRuns.generation++;
        expect(cut).toEqual(face.layoutScaled(word));
      }
    }
  });

  it("lays out Latin words without HarfBuzz as HarfBuzz shapes them, in runs pdfkit draws the same", () => {
    const bytes = readFileSync(fontPath("bold"));
    const tables = latinTables(shapedFace(bytes));
    const quick = shapedFace(bytes, undefined, { latinTables: tables }) as unknown as { layoutScaled(text: string): ScaledRun };
    const harfBuzz = shapedFace(bytes) as unknown as { layoutScaled(text: string): ScaledRun };
    const addText = vi.spyOn(hb.Buffer.prototype, "addText");
    const texts = ["AVATAR ", "Tao, ", "Wohnungsübergabe  ", "LTAVYW", "“Quoted”—dashed… ", "façade. ", "Łódź "];
    const runs = texts.map((text) => quick.layoutScaled(text));
    expect(addText).not.toHaveBeenCalled();
    addText.mockRestore();
    texts.forEach((text, i) => expect(runs[i], text).toEqual(harfBuzz.layoutScaled(text)));
    expect(runs[0]!.positions.some((p) => p.xAdvance !== p.advanceWidth)).toBe(true); // kerned
    // Tables of another font file are not used.
    const other = shapedFace(readFileSync(fontPath("regular")), undefined, { latinTables: tables }) as unknown as { layoutScaled(text: string): ScaledRun };
    const shaped = vi.spyOn(hb.Buffer.prototype, "addText");
    other.layoutScaled("AVATAR ");
    expect(shaped).toHaveBeenCalledTimes(1);
    shaped.mockRestore();
  });

  it("keeps a word across documents without the paragraph it was cut from", () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const face = fontRuns("x", "regular")[0]!.font as unknown as { layoutScaled(text: string): ScaledRun };
    const heapAfter = (work: () => void) => {
      work();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const before = heapAfter(() => {});
    const after = heapAfter(() => {
      // A 16 MiB paragraph, and a word of it long enough for V8 to cut as a view into it.
      const paragraph = `${"Ü".repeat(16 << 20)} Grundstücksverwaltung ${Math.random()}`;
      const start = paragraph.indexOf("Grund");
      face.layoutScaled(paragraph.slice(start, start + 21));
    });
    expect(after - before).toBeLessThan(8 << 20);
  });

  it("keeps shaped words across documents only within a bound in characters shared by every face", () => {
    const face = (key: "regular" | "bold") => fontRuns("x", key)[0]!.font as unknown as { layoutScaled(text: string): ScaledRun };
    const regular = face("regular");
    const bold = face("bold");
    const kept = regular.layoutScaled("Wohnungsübergabe");
    expect(regular.layoutScaled("Wohnungsübergabe")).toBe(kept);
    // Unique 48-character words in another face, past the shared bound: every face starts afresh.
    const words = Math.ceil(sharedRuns.maxChars / 48) + 1;
    for (let i = 0; i < words; i++) bold.layoutScaled(`${i}`.padStart(48, "w"));
    expect(sharedRuns.chars).toBeLessThanOrEqual(sharedRuns.maxChars);
    expect(regular.layoutScaled("Wohnungsübergabe")).not.toBe(kept);
    expect(regular.layoutScaled("Wohnungsübergabe")).toEqual(kept);
  });
});
