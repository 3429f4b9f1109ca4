import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import { type EmbeddedFont, plainLine, widthInFace } from "./font-encoding.js";
import { num } from "./pdf-values.js";
import { fonts, registerFaces } from "./fonts.js";
import { boundLayoutCaches } from "./layout-cache.js";
import { brokenHeight } from "./line-break.js";
import type { Doc } from "./doc.js";

/** A document set up as render-document.ts sets one up, as far as fonts go. */
function newDoc(): Doc {
  const doc: Doc = new PDFDocument({ font: null as unknown as string });
  registerFaces(doc);
  boundLayoutCaches(doc);
  return doc;
}

describe("our fonts in pdfkit", () => {
  const samples = ["Wohnungsübergabe", "fristgerecht zum ", "  two  spaces\tand a tab ", "office ﬁnal AVAWA", "", " "];

  it("measure a string as pdfkit's widthOfString does, to the last bit", () => {
    const doc = newDoc();
    for (const face of ["regular", "bold"] as const) {
      for (const text of samples) {
        for (const size of [8.5, 10.5, 22]) expect(widthInFace(fonts()[face], text, size), `${face} ${size} "${text}"`).toBe(doc.font(face).fontSize(size).widthOfString(text));
      }
    }
  });

  it("encode a line as pdfkit's EmbeddedFont does: the seed's codes, others in order of first use, positions in 1/1000 em", () => {
    const doc = newDoc();
    const font = (doc.font("regular") as unknown as { _font: { encode(text: string): [string[], { xAdvance: number; advanceWidth: number }[]] } })._font;
    const [codes, positions] = font.encode("abc cab");
    // a, b and c are the seed's first glyphs and the space its 37th (text/shaping.ts SEED), whatever came first.
    expect(codes).toEqual(["0001", "0002", "0003", "0025", "0003", "0001", "0002"]);
    // Z is the seed's last glyph; past its 70 codes, a glyph gets the next code when first drawn.
    expect(font.encode("ZÄZ")[0]).toEqual(["0046", "0047", "0046"]);
    expect(positions).toHaveLength(7);
    expect(positions[0]!.xAdvance).toBeCloseTo(612.79, 1);
    expect(positions[0]!.advanceWidth).toBe(positions[0]!.xAdvance);
  });

  it("give a paragraph the height pdfkit's heightOfString gives it, line for line", () => {
    const doc = newDoc();
    const text = "Hiermit kündige ich den Mietvertrag für die Wohnung an der Bahnhofstraße 12 fristgerecht zum 31. März 2027. ".repeat(3);
    for (const face of ["regular", "bold", "italic"] as const) {
      for (const width of [120, 300, 483]) {
        for (const [size, lineGap] of [
          [10.5, 2.5],
          [15, 0],
          [9, 1],
        ] as const) {
          const run = { text, bold: face === "bold", italic: face === "italic", code: false };
          const expected = doc.font(face).fontSize(size).heightOfString(text, { width, lineGap });
          const height = brokenHeight(doc, [run], width, size, lineGap);
          // At 120 pt a long word may not fit a line: pdfkit breaks inside it, and brokenHeight leaves it to pdfkit.
          if (width > 120) expect(height, `${face} ${width} ${size}`).toBe(expected);
          else expect([undefined, expected], `${face} ${width} ${size}`).toContain(height);
        }
      }
    }
  });

  it("give text with hard line breaks the height pdfkit's heightOfString gives it", () => {
    const doc = newDoc();
    const run = (text: string) => ({ text, bold: false, italic: false, code: false });
    for (const text of ["Mit freundlichen Grüßen\nJürgen Müller", "one\n\ntwo", "\nlast line ends\n", "Hiermit kündige ich den Mietvertrag für die Wohnung\nan der Bahnhofstraße 12"]) {
      const expected = doc.font("regular").fontSize(10.5).heightOfString(text, { width: 150, lineGap: 2.5 });
      expect(brokenHeight(doc, [run(text)], 150, 10.5, 2.5), JSON.stringify(text)).toBe(expected);
    }
  });

  it("leave to pdfkit what our line breaking can't say: several faces, code, nothing", () => {
    const doc = newDoc();
    const run = (text: string, style: Partial<{ bold: boolean; code: boolean }> = {}) => ({ text, bold: false, italic: false, code: false, ...style });
    expect(brokenHeight(doc, [run("a "), run("b", { bold: true })], 100, 10, 0)).toBeUndefined();
    expect(brokenHeight(doc, [run("x", { code: true })], 100, 10, 0)).toBeUndefined();
    expect(brokenHeight(doc, [run("")], 100, 10, 0)).toBeUndefined();
    expect(brokenHeight(doc, [], 100, 10, 0)).toBeUndefined();
  });

  it("give a line's TJ operands and advance in one pass as pdfkit's encode and a loop over its arrays give them", () => {
    const text = "AVAWA Tour, office ﬁnal — Wohnungsübergabe\tam 30. März";
    const fontOf = (doc: Doc) => (doc.font("regular").fontSize(10.5) as unknown as { _font: EmbeddedFont })._font;
    const fused = plainLine(fontOf(newDoc()), text, 10.5)!;
    // The same line the long way, in a document of its own (codes are numbered per document).
    const [codes, positions] = fontOf(newDoc()).encode(text);
    const operands: string[] = [];
    let last = 0;
    let advance = 0;
    positions.forEach((p, i) => {
      advance += p.xAdvance * (10.5 / 1000);
      if (p.xAdvance - p.advanceWidth !== 0 || i === positions.length - 1) {
        operands.push(`<${codes.slice(last, i + 1).join("")}> ${num(p.advanceWidth - p.xAdvance)}`);
        last = i + 1;
      }
    });
    expect(fused).toEqual({ operands: operands.join(" "), advance });
    expect(operands.length).toBeGreaterThan(1);
  });
});
