import type * as fontkit from "fontkit";
import * as hb from "harfbuzzjs";

/** A glyph as pdfkit's embedded font reads it: id, hmtx advance (font units) and the characters it stands for. */
export interface ShapedGlyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

/** A position as pdfkit reads it (font units until pdfkit scales them). */
export interface ShapedPosition {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
  advanceWidth?: number;
}

/** The result of shaping, in the shape of fontkit's GlyphRun that pdfkit's EmbeddedFont consumes. */
export class ShapedRun {
  constructor(
    readonly glyphs: ShapedGlyph[],
    readonly positions: ShapedPosition[],
  ) {}
  /** Sum of the advances (pdfkit reads it after scaling the positions, so it is computed, not stored). */
  get advanceWidth(): number {
    let width = 0;
    for (const p of this.positions) width += p.xAdvance;
    return width;
  }
}

// Right-to-left strong characters (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms):
// a run holding one is shaped right to left, and HarfBuzz then returns its glyphs in visual order.
const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;
const LTR = /[\p{L}--[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]]/v;

/** Whether `text` has a right-to-left letter. */
export function hasRightToLeft(text: string): boolean {
  return RTL.test(text);
}

/** "rtl" when the first strong character of `text` is right-to-left. */
export function directionOf(text: string): "ltr" | "rtl" {
  const rtl = RTL.exec(text)?.index ?? -1;
  if (rtl === -1) return "ltr";
  const ltr = LTR.exec(text)?.index ?? -1;
  return ltr === -1 || rtl < ltr ? "rtl" : "ltr";
}

let buffer: hb.Buffer | undefined;

/**
 * A pseudo-feature, passed through pdfkit's `features` option, that shapes a run right to left whatever its
 * characters: neutral characters inside right-to-left text (brackets) are then mirrored by HarfBuzz while
 * their Unicode mapping stays the character written.
 */
export const RIGHT_TO_LEFT = "selu-rtl";

/**
 * Makes `font.layout` shape with HarfBuzz (compiled to WebAssembly): Arabic joining, Indic reordering and
 * conjuncts, Thai marks, ligatures and kerning, from the font's own OpenType tables. pdfkit measures and
 * draws every run through `layout`, then embeds the glyph ids it returns, so the subset, the widths and
 * the ToUnicode map all follow the shaped glyphs. `bytes` are the font's plain OpenType data.
 */
export function shapeWithHarfBuzz(font: fontkit.Font, bytes: Uint8Array): void {
  let hbFont: hb.Font | undefined;
  const glyphOf = glyphTable(font);
  // Shaped words, kept across documents (pdfkit's own cache lives for one document): a letter's words
  // repeat from call to call. Bounded like pdfkit's (see render/layout-cache.ts).
  let cache = new Map<string, ShapedRun>();
  (font as { layout: (text: string, features?: unknown) => ShapedRun }).layout = (text: string, features?: unknown) => {
    const rtl = (Array.isArray(features) && features.includes(RIGHT_TO_LEFT)) || directionOf(text) === "rtl";
    const key = rtl ? `\u0000${text}` : text;
    let run = cache.get(key);
    if (!run) {
      hbFont ??= new hb.Font(new hb.Face(new hb.Blob(bytes), 0));
      buffer ??= new hb.Buffer();
      buffer.reset();
      buffer.addText(text);
      buffer.guessSegmentProperties();
      buffer.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR);
      hb.shape(hbFont, buffer);
      run = toRun(text, buffer.getGlyphInfosAndPositions(), glyphOf);
      if (text.length <= MAX_CACHED_CHARS) {
        if (cache.size >= MAX_CACHED_RUNS) cache = new Map();
        cache.set(key, run);
      }
    }
    // pdfkit scales the positions it is given in place: each caller gets its own.
    return new ShapedRun(
      run.glyphs,
      run.positions.map((p) => ({ ...p })),
    );
  };
}

const MAX_CACHED_RUNS = 4_000;
const MAX_CACHED_CHARS = 64;
const MAX_CACHED_SUBSETS = 16;

// Glyph ids from here up name a copy of a glyph that stands for other characters (see `variantOf`).
const VARIANT = 0x10000;

/**
 * pdfkit keeps one Unicode mapping per embedded glyph, for copying text out. In a cluster (the glyphs
 * HarfBuzz made of some characters) the base glyph, the first that advances, stands for all of the
 * cluster's characters (a ligature "fi" copies as "fi", a reordered Indic syllable as written) and the
 * others (marks, dots, vowel signs) for none. One glyph can stand for different characters in different
 * places (Noto Sans Arabic draws ب ت ث ن ي in the middle of a word with one dotless glyph plus dots,
 * DejaVu Latin "A" and Greek "Α" with one): each further meaning gets an id of its own, which the
 * subset embeds as a copy of the glyph with its own mapping.
 */
function toRun(text: string, infos: readonly (hb.GlyphInfo & Partial<hb.GlyphPosition>)[], glyphOf: (id: number, text: string) => ShapedGlyph): ShapedRun {
  const starts = [...new Set(infos.map((g) => g.cluster))].sort((a, b) => a - b);
  const endOf = new Map(starts.map((start, i) => [start, starts[i + 1] ?? text.length]));
  const base = new Map<number, number>();
  infos.forEach((g, i) => {
    const chosen = base.get(g.cluster);
    if (chosen === undefined || (!infos[chosen]!.xAdvance && g.xAdvance)) base.set(g.cluster, i);
  });
  const glyphs: ShapedGlyph[] = [];
  const positions: ShapedPosition[] = [];
  infos.forEach((g, i) => {
    glyphs.push(glyphOf(g.codepoint, base.get(g.cluster) === i ? text.slice(g.cluster, endOf.get(g.cluster)) : ""));
    positions.push({ xAdvance: g.xAdvance ?? 0, yAdvance: g.yAdvance ?? 0, xOffset: g.xOffset ?? 0, yOffset: g.yOffset ?? 0 });
  });
  return new ShapedRun(glyphs, positions);
}

/**
 * The glyph objects of one font, one per (glyph, characters) pair, and a subset that embeds a glyph once
 * per meaning: fontkit's subset maps each id it is given to one embedded glyph, so a variant id (above
 * VARIANT) is given a copy of its glyph.
 */
function glyphTable(font: fontkit.Font): (id: number, text: string) => ShapedGlyph {
  const glyphs = new Map<string, ShapedGlyph>();
  const meanings = new Map<number, number>();
  const createSubset = font.createSubset.bind(font);
  // Encoded subsets by the glyphs they hold: documents that use the same glyphs (the same letter again,
  // a form filled in) embed the same bytes without encoding the font again.
  const encoded = new Map<string, Uint8Array>();
  (font as { createSubset: () => unknown }).createSubset = () => {
    const subset = createSubset() as unknown as { includeGlyph(id: number): number; encode(): Uint8Array; glyphs: number[]; mapping: Record<number, number> };
    const include = subset.includeGlyph.bind(subset);
    subset.includeGlyph = (id: number) => {
      if (typeof id !== "number" || id < VARIANT) return include(id);
      subset.mapping[id] ??= subset.glyphs.push(id % VARIANT) - 1;
      return subset.mapping[id]!;
    };
    const encode = subset.encode.bind(subset);
    subset.encode = () => {
      const key = subset.glyphs.join(",");
      let bytes = encoded.get(key);
      if (!bytes) {
        bytes = encode();
        if (encoded.size >= MAX_CACHED_SUBSETS) encoded.delete(encoded.keys().next().value!);
        encoded.set(key, bytes);
      }
      return bytes;
    };
    return subset;
  };
  return (id, text) => {
    const key = `${id}:${text}`;
    let glyph = glyphs.get(key);
    if (!glyph) {
      const meaning = meanings.get(id) ?? 0;
      meanings.set(id, meaning + 1);
      glyph = { id: id + meaning * VARIANT, advanceWidth: font.getGlyph(id).advanceWidth, codePoints: Array.from(text, (c) => c.codePointAt(0)!) };
      glyphs.set(key, glyph);
    }
    return glyph;
  };
}
