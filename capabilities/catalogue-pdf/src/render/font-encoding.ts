import type { CidSubset, FontFace } from "../text/font-face.js";
import type { ScaledPosition, ScaledRun, ShapedGlyph } from "../text/shaping.js";
import { ByteWriter } from "./byte-writer.js";
import { hex4, num } from "./pdf-values.js";

// pdfkit's EmbeddedFont lays a string out word by word, concatenating each word's glyphs and positions
// onto copies of the arrays so far, and writes each glyph's code as a new string: a line of 15 words made
// 30 arrays and a string per glyph, in every document. For the fonts of ours (FontFace) the same results
// are built here by appending, with each code's string made once.

/** The parts of pdfkit's EmbeddedFont replaced or read here (internal, pdfkit 0.20). */
export interface EmbeddedFont {
  font?: unknown;
  scale: number;
  subset: CidSubset;
  widths: number[];
  unicode: number[][];
  layoutCache?: object;
  layoutRun(text: string, features?: unknown): ScaledRun;
  layoutCached(text: string): ScaledRun;
  layout(text: string, features?: unknown, onlyWidth?: boolean): Laid;
  encode(text: string, features?: unknown): [string[], readonly ScaledPosition[]];
}

/** A laid-out string (no arrays when only its width was asked for). */
interface Laid {
  glyphs: readonly ShapedGlyph[] | null;
  positions: readonly ScaledPosition[] | null;
  advanceWidth: number;
}

/** Makes `font` (an EmbeddedFont of `face`) lay out and encode as pdfkit does, from `face`'s shared runs. */
export function encodeOurWay(font: EmbeddedFont, face: FontFace): void {
  font.layoutRun = face.layoutScaled as EmbeddedFont["layoutRun"];
  // The face keeps its words across documents: pdfkit's cache of them for this document would only repeat it.
  font.layoutCached = face.layoutScaled as EmbeddedFont["layoutCached"];
  font.layout = layout;
  font.encode = encode;
}

/**
 * Whether pdfkit's layout ends a word at `index` (the word from `last` to `index`, both included): at a
 * space or tab, which stays with the word before it, or past the end of the text with a word pending.
 */
function endsWord(text: string, index: number, last: number): boolean {
  if (index === text.length) return last < index;
  const unit = text.charCodeAt(index);
  return unit === 0x20 || unit === 0x09;
}

/** pdfkit's `layout`: each word with the spaces after it from the cache, summed in order. */
function layout(this: EmbeddedFont, text: string, features?: unknown, onlyWidth?: boolean): Laid {
  if (features) return this.layoutRun(text, features);
  const glyphs: ShapedGlyph[] | null = onlyWidth ? null : [];
  const positions: ScaledPosition[] | null = onlyWidth ? null : [];
  let advanceWidth = 0;
  let last = 0;
  for (let index = 0; index <= text.length; index++) {
    if (!endsWord(text, index, last)) continue;
    const run = this.layoutCached(text.slice(last, index + 1));
    if (glyphs && positions) {
      for (let g = 0; g < run.glyphs.length; g++) glyphs.push(run.glyphs[g]!);
      for (let p = 0; p < run.positions.length; p++) positions.push(run.positions[p]!);
    }
    advanceWidth += run.advanceWidth;
    last = index + 1;
  }
  return { glyphs, positions, advanceWidth };
}

/**
 * What pdfkit's `doc.widthOfString(text)` gives with `face` selected at `size` (no options), the same
 * arithmetic on the same runs, without selecting the font in a document: measuring a line's words need
 * not switch the document's font for each.
 */
export function widthInFace(face: FontFace, text: string, size: number): number {
  let advanceWidth = 0;
  let last = 0;
  for (let index = 0; index <= text.length; index++) {
    if (!endsWord(text, index, last)) continue;
    advanceWidth += (face.layoutScaled(text.slice(last, index + 1)) as ScaledRun).advanceWidth;
    last = index + 1;
  }
  return ((advanceWidth * (size / 1000) + 0 * (text.length - 1)) * 100) / 100;
}

/** pdfkit's `encode`: the glyphs' codes in this document (4 hex digits each), noting each code's width and text. */
function encode(this: EmbeddedFont, text: string, features?: unknown): [string[], readonly ScaledPosition[]] {
  const { glyphs, positions } = this.layout(text, features) as ScaledRun;
  const codes: string[] = new Array(glyphs.length);
  for (let i = 0; i < glyphs.length; i++) {
    const glyph = glyphs[i]!;
    const gid = this.subset.includeGlyph(glyph.id);
    codes[i] = hex4(gid);
    if (this.widths[gid] == null) this.widths[gid] = glyph.advanceWidth * this.scale;
    if (this.unicode[gid] == null) this.unicode[gid] = glyph.codePoints;
  }
  return [codes, positions];
}

/** Whether `font` lays out and encodes the way of this module (a font of ours). */
export function encodesOurWay(font: object): font is EmbeddedFont {
  return (font as Partial<EmbeddedFont>).encode === encode;
}

/** A line's TJ operands and its advance, as render/plain-text.ts writes them. */
export interface PlainLine {
  operands: string;
  advance: number;
}

/**
 * What `encode(text)` and then plain-text.ts's loop over its arrays make of a line (the codes of each
 * stretch of glyphs set on their advances, followed by the kerning after it; the advance at `size`), in one
 * pass over the words' shared runs, without the line's arrays of glyphs, positions and codes. Undefined
 * when a glyph is placed off its advance (such a line is pdfkit's to draw).
 */
export function plainLine(font: EmbeddedFont, text: string, size: number): PlainLine | undefined {
  const out = startLine();
  const advance = writePlainLine(font, text, size, out);
  return advance === undefined ? undefined : { operands: out.toString(), advance };
}

/**
 * Writes {@link plainLine}'s operands to `out` and returns the advance; undefined (with some written, to
 * be discarded) when a glyph is placed off its advance.
 */
export function writePlainLine(font: EmbeddedFont, text: string, size: number, out: ByteWriter): number | undefined {
  const scale = size / 1000;
  const from = out.length;
  let open = false; // whether a stretch of codes has begun ("<" written)
  let advance = 0;
  let kerning = 0;
  let last = 0;
  for (let index = 0; index <= text.length; index++) {
    if (!endsWord(text, index, last)) continue;
    const run = font.layoutCached(text.slice(last, index + 1));
    last = index + 1;
    for (let g = 0; g < run.glyphs.length; g++) {
      const glyph = run.glyphs[g]!;
      const { xAdvance, advanceWidth, xOffset, yOffset } = run.positions[g]!;
      if (xOffset || yOffset) return undefined;
      const gid = font.subset.includeGlyph(glyph.id);
      if (!open) out.text(out.length > from ? " <" : "<");
      open = true;
      out.text(hex4(gid));
      if (font.widths[gid] == null) font.widths[gid] = glyph.advanceWidth * font.scale;
      if (font.unicode[gid] == null) font.unicode[gid] = glyph.codePoints;
      advance += xAdvance * scale;
      kerning = advanceWidth - xAdvance;
      if (xAdvance - advanceWidth !== 0) {
        out.text("> ");
        out.number(num(kerning));
        open = false;
      }
    }
  }
  if (open) {
    out.text("> ");
    out.number(num(kerning));
  }
  return advance;
}

/**
 * The one writer of a content-stream line all documents share, emptied: appending to a string made a new
 * string per glyph. A line is started, written and read within one synchronous call, so documents
 * rendered at once never interleave in it.
 */
export function startLine(): ByteWriter {
  line.length = 0;
  return line;
}
const line = new ByteWriter();
