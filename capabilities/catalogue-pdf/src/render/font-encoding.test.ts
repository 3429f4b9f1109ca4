import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import { widthInFace } from "./font-encoding.js";
import { fonts, registerFaces } from "./fonts.js";
import { boundLayoutCaches } from "./layout-cache.js";
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

  it("encode a line as pdfkit's EmbeddedFont does: codes in order of first use, positions in 1/1000 em", () => {
    const doc = newDoc();
    const font = (doc.font("regular") as unknown as { _font: { encode(text: string): [string[], { xAdvance: number; advanceWidth: number }[]] } })._font;
    const [codes, positions] = font.encode("abc cab");
    expect(codes).toEqual(["0001", "0002", "0003", "0004", "0003", "0001", "0002"]);
    expect(positions).toHaveLength(7);
    expect(positions[0]!.xAdvance).toBeCloseTo(612.79, 1);
    expect(positions[0]!.advanceWidth).toBe(positions[0]!.xAdvance);
  });
});
