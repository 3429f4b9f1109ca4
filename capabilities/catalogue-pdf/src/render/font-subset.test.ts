import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";
import { describe, expect, it } from "vitest";
import { woffToSfnt } from "../text/woff.js";
import { subsetFont } from "./font-subset.js";

const fileOf = (path: string) => woffToSfnt(readFileSync(createRequire(import.meta.url).resolve(path)));
const dejavu = fileOf("dejavu-fonts-ttf/ttf/DejaVuSans.ttf");
const original = fontkit.create(dejavu) as fontkit.Font;
const glyphsOf = (text: string) => [...new Set(Array.from(text, (c) => original.glyphForCodePoint(c.codePointAt(0)!).id))];
const tablesOf = (font: fontkit.Font) => Object.keys((font as unknown as { directory: { tables: object } }).directory.tables).sort();

describe("subsetFont", () => {
  it("keeps glyph 0 and the parts of composite glyphs, renumbered in order (DejaVu builds ü from u and a diaeresis)", () => {
    const [u, uDiaeresis] = glyphsOf("uü");
    const { newId } = subsetFont(dejavu, [uDiaeresis!]);
    expect([...newId.keys()]).toEqual([...newId.keys()].sort((a, b) => a - b));
    expect(newId.get(0)).toBe(0);
    expect(newId.has(u!)).toBe(true);
    expect(newId.size).toBeGreaterThan(2);
  });

  it.each([
    "dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf",
    "dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf",
    "@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-700-normal.woff",
    "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff",
    "@fontsource/noto-emoji/files/noto-emoji-0-400-normal.woff",
  ])("draws every glyph of %s as the original does, with its advance, under its new number", (path) => {
    const bytes = fileOf(path);
    const font = fontkit.create(bytes) as fontkit.Font;
    const glyphs = Array.from({ length: Math.min(font.numGlyphs - 1, 300) }, (_, i) => 1 + ((i * 37) % (font.numGlyphs - 1)));
    const subset = subsetFont(bytes, glyphs);
    const cut = fontkit.create(Buffer.from(subset.bytes)) as fontkit.Font;
    expect(cut.numGlyphs).toBe(subset.newId.size);
    for (const id of glyphs) {
      const [was, is] = [font.getGlyph(id), cut.getGlyph(subset.newId.get(id)!)];
      expect([is.path.toSVG(), is.advanceWidth], `glyph ${id}`).toEqual([was.path.toSVG(), was.advanceWidth]);
    }
    expect(tablesOf(cut)).toEqual(["glyf", "head", "hhea", "hmtx", "loca", "maxp"]);
  });

  it("leaves out the hinting instructions (most of DejaVu's bytes)", () => {
    const glyphs = glyphsOf("Kündigung Straße Ωω Жж €");
    const plain = subsetFont(dejavu, glyphs).bytes.length;
    const hinted = (() => {
      // fontkit's subset keeps the instructions.
      const subset = original.createSubset() as unknown as { includeGlyph(id: number): number; encode(): Uint8Array };
      for (const id of glyphs) subset.includeGlyph(id);
      return subset.encode().length;
    })();
    expect(plain).toBeLessThan(hinted / 2);
  });
});
