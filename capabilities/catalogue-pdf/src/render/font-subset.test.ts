import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";
import { describe, expect, it } from "vitest";
import { glyphClosure, subsetFont } from "./font-subset.js";

const dejavu = readFileSync(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"));
const original = fontkit.create(dejavu) as fontkit.Font;
const glyphsOf = (text: string) => [...new Set(Array.from(text, (c) => original.glyphForCodePoint(c.codePointAt(0)!).id))];

describe("subsetFont", () => {
  it("keeps glyph 0 and the parts of composite glyphs (DejaVu builds ü from u and a diaeresis)", () => {
    const [u, uDiaeresis] = glyphsOf("uü");
    const parts = glyphClosure(dejavu, [uDiaeresis!]);
    expect(parts[0]).toBe(0);
    expect(parts).toContain(uDiaeresis);
    expect(parts).toContain(u);
  });

  it("draws every glyph as the original does, under its new number, without hinting", () => {
    const glyphs = glyphsOf("Kündigung Straße Ωω Жж €");
    const subset = subsetFont(dejavu, glyphs);
    const cut = fontkit.create(Buffer.from(subset.bytes)) as fontkit.Font;
    expect(cut.numGlyphs).toBe(glyphClosure(dejavu, glyphs).length);
    for (const id of glyphs) expect(cut.getGlyph(subset.newId.get(id)!).path.toSVG()).toBe(original.getGlyph(id).path.toSVG());
    expect(Object.keys((cut as unknown as { directory: { tables: object } }).directory.tables).sort()).toEqual(["glyf", "head", "hhea", "hmtx", "loca", "maxp"]);
  });
});
