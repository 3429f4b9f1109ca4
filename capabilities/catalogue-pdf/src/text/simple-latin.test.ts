import * as hb from "harfbuzzjs";
import { describe, expect, it } from "vitest";
import { LATIN_TABLES } from "../gen/latin-tables.js";
import { fonts } from "../render/fonts.js";
import type { FontFace } from "./font-face.js";
import { latinTables, simpleLatin } from "./simple-latin.js";

/** HarfBuzz's glyphs and positions for `text`, set up as text/shaping.ts does. */
const buffer = new hb.Buffer();
function harfBuzz(face: FontFace, text: string) {
  buffer.reset();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  buffer.setDirection(hb.Direction.LTR);
  hb.shape(face.hb, buffer);
  const result = { infos: buffer.getGlyphInfos(), positions: buffer.getGlyphPositions() };
  return result;
}

function expectSame(face: FontFace, text: string, run: { ids: number[]; advances: number[]; clusters?: number[] }) {
  const { infos, positions } = harfBuzz(face, text);
  const { clusters, ...glyphs } = run;
  expect({ text, ids: infos.map((g) => g.codepoint), advances: positions.map((p) => p.xAdvance) }).toEqual({ text, ...glyphs });
  expect(positions.every((p) => p.yAdvance === 0 && p.xOffset === 0 && p.yOffset === 0)).toBe(true);
  expect(infos.map((g) => g.cluster)).toEqual(clusters ?? [...text].map((_, i) => i));
}

describe("simpleLatin", () => {
  const faces = Object.entries(fonts());

  it("has each DejaVu face's tables generated as read now (else: pnpm run build && pnpm run latin-tables)", () => {
    for (const [name, face] of faces) expect(JSON.parse(LATIN_TABLES[name] ?? "null"), name).toEqual(latinTables(face) ?? null);
  });

  it("lays out every pair of the characters it takes, and a pair with a space after, as HarfBuzz does", () => {
    for (const [name, face] of faces) {
      const tables = latinTables(face);
      expect(tables, name).toBeDefined();
      const shaper = simpleLatin(tables!);
      const taken: string[] = [];
      for (const c of [0x09, 0x0a, 0x0d]) if (shaper!(`a${String.fromCharCode(c)}`)) taken.push(String.fromCharCode(c));
      expect(taken, `${name}: tab, line feed and carriage return`).toHaveLength(3);
      for (let c = 0x21; c <= 0x2122; c++) if (shaper!(`a${String.fromCharCode(c)}`)) taken.push(String.fromCharCode(c));
      expect(taken.length, name).toBeGreaterThan(150);
      let compared = 0;
      for (const a of taken) {
        for (const b of taken) {
          for (const text of [a + b, `${a + b} `]) {
            const run = shaper!(text);
            if (!run) continue;
            // Compared for the pairs the kerning reads (a sample of the rest, to keep the test fast).
            if (run.advances.some((w, i) => w !== face.getGlyph(run.ids[i]!).advanceWidth) || (a.charCodeAt(0) * 31 + b.charCodeAt(0)) % 17 === 0) {
              expectSame(face, text, run);
              compared++;
            }
          }
        }
      }
      expect(compared, name).toBeGreaterThan(1000);
    }
  });

  it("lays out random Latin words as HarfBuzz does", () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n;
    const alphabet = "\n\tabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,;:!?'\"()-–—‘’“”…äöüßéèêàçñøåÆŒœłŁşğıİčřž€@&/%";
    for (const [, face] of faces) {
      const shaper = simpleLatin(latinTables(face)!);
      for (let i = 0; i < 3000; i++) {
        let word = "";
        for (let n = 1 + Math.floor(random(12)); n > 0; n--) word += alphabet[Math.floor(random(alphabet.length))];
        if (random(2) < 1) word += " ";
        const run = shaper(word);
        if (run) expectSame(face, word, run);
      }
    }
  });

  it("leaves to HarfBuzz what it would shape otherwise: marks, other scripts, no Latin letter, inner spaces", () => {
    const shaper = simpleLatin(latinTables(fonts().regular)!);
    expect(shaper("word")).toBeDefined();
    expect(shaper("word  ")).toBeDefined();
    for (const text of ["e\u0301", "Ωμέγα", "слово", "2026", "...", "two words", "soft\u00adhyphen", "\u05e9\u05dc\u05d5\u05dd"]) {
      expect(shaper(text), text).toBeUndefined();
    }
  });

  it("lays out ligatures (ff, fi, fl, ffi, ffl) as HarfBuzz does, in words of f, i and l of every kind", () => {
    let seed = 11;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n;
    const alphabet = "ffffiiillltTVAy.,'’ ";
    for (const [name, face] of faces) {
      const tables = latinTables(face)!;
      const shaper = simpleLatin(tables);
      let joined = 0;
      for (const word of ["office", "flow", "affluent", "difficult", "Pflicht", "offline", "ffi", "fff", "fffi", "fif", "f.", "fi ", "fl  "]) {
        const run = shaper(word);
        expect(run, `${name}: ${word}`).toBeDefined();
        expectSame(face, word, run!);
        if (run!.clusters) joined++;
      }
      // The monospaced faces have no ligatures; the others join most of these.
      if (tables.ligatures.length > 0) expect(joined, name).toBeGreaterThan(8);
      for (let i = 0; i < 3000; i++) {
        let word = "";
        for (let n = 1 + Math.floor(random(10)); n > 0; n--) word += alphabet[Math.floor(random(alphabet.length))];
        const run = shaper(word.trimStart());
        if (run) expectSame(face, word.trimStart(), run);
      }
    }
  });
});
