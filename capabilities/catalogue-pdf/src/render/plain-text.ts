import type { Doc } from "./doc.js";
import { encodesOurWay, type PlainLine, startLine, writePlainLine } from "./font-encoding.js";
import { num } from "./pdf-values.js";

// One line of text in the current font and size, written as pdfkit's `_fragment` writes it (the same
// operators, byte for byte) in one go: pdfkit's text call parses options, measures the text a second time,
// multiplies matrices and adds each operator separately, which for a table's thousands of short cells was
// a fifth of a report's time. Links, underlines and glyphs placed off their advance (marks) stay pdfkit's.

/** A glyph's placement as pdfkit's fonts give it, in font units. */
interface Position {
  xAdvance: number;
  advanceWidth: number;
  xOffset: number;
  yOffset: number;
}

/** The current font of a document as pdfkit holds it (internal, pdfkit 0.20). */
interface CurrentFont {
  id: string;
  ref(): unknown;
  encode(text: string): [string[], Position[]];
}

interface Internals {
  _font: CurrentFont;
  _fontSize: number;
  page: { height: number; fonts: Record<string, unknown> };
}

/**
 * Draws `text` in the current font and size from x, its baseline `ascent` below y (pdfkit's coordinates),
 * and returns its advance; or draws nothing and returns undefined when a glyph is placed off its advance.
 */
export function drawPlain(doc: Doc, text: string, x: number, y: number, ascent: number): number | undefined {
  if (text === "") return 0;
  const { _font: font, _fontSize: size, page } = doc as unknown as Internals;
  if (!encodesOurWay(font)) return drawEncoded(doc, font, text, x, y, ascent);
  // Written in one piece (see startLine): the operators around the line's operands, then the operands.
  const out = startLine();
  out.text("q\n1 0 0 -1 0 ");
  out.number(num(page.height));
  out.text(" cm\nBT\n1 0 0 1 ");
  out.number(num(x));
  out.text(" ");
  out.number(num(page.height - y - ascent));
  out.text(" Tm\n/");
  out.text(font.id);
  out.text(" ");
  out.number(num(size));
  out.text(" Tf");
  const beforeOperands = out.length;
  out.text("\n[");
  const operandsFrom = out.length;
  const advance = writePlainLine(font, text, size, out);
  if (advance === undefined) return undefined;
  if (out.length === operandsFrom) out.length = beforeOperands;
  else out.text("] TJ");
  out.text("\nET\nQ");
  if (page.fonts[font.id] == null) page.fonts[font.id] = font.ref();
  doc.addContent(out.toString());
  return advance;
}

/** {@link drawPlain} in a font not of ours, from the font's `encode`. */
function drawEncoded(doc: Doc, font: CurrentFont, text: string, x: number, y: number, ascent: number): number | undefined {
  const { _fontSize: size, page } = doc as unknown as Internals;
  const line = encodedLine(font, text, size);
  if (!line) return undefined;
  if (page.fonts[font.id] == null) page.fonts[font.id] = font.ref();
  const text_ = line.operands ? `\n[${line.operands}] TJ` : "";
  doc.addContent(`q\n1 0 0 -1 0 ${num(page.height)} cm\nBT\n1 0 0 1 ${num(x)} ${num(page.height - y - ascent)} Tm\n/${font.id} ${num(size)} Tf${text_}\nET\nQ`);
  return line.advance;
}

/** A line's operands from the font's `encode` (a font not of ours). */
function encodedLine(font: CurrentFont, text: string, size: number): PlainLine | undefined {
  const [encoded, positions] = font.encode(text);
  if (positions.some((p) => p.xOffset || p.yOffset)) return undefined;
  const scale = size / 1000;
  // Glyphs in runs, each followed by the kerning after it, as pdfkit's TJ arrays are.
  const commands: string[] = [];
  let last = 0;
  let advance = 0;
  for (let i = 0; i < positions.length; i++) {
    const { xAdvance, advanceWidth } = positions[i]!;
    advance += xAdvance * scale;
    if (xAdvance - advanceWidth !== 0 || i === positions.length - 1) {
      commands.push(`<${encoded.slice(last, i + 1).join("")}> ${num(advanceWidth - xAdvance)}`);
      last = i + 1;
    }
  }
  return { operands: commands.join(" "), advance };
}
