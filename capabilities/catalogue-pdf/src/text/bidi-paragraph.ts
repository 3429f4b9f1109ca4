import type { EmbeddingLevels } from "bidi-js";
import { type Run, runsText } from "../document/inline.js";
import { fonts, fontKeyFor } from "../render/fonts.js";
import type { Doc } from "../render/doc.js";
import { textOf, useFont } from "./doc-text.js";
import { tagsOf } from "../render/tags.js";
import { fontRuns, inOneFace, type FontRun } from "./font-runs.js";
import { hasRightToLeft, paragraphDirection } from "./direction.js";
import { clusters, hasUnspacedScript, lineBreaks } from "./line-breaks.js";
import { RIGHT_TO_LEFT } from "./shaping.js";
import { reordered } from "./visual-order.js";
import { embeddingLevels, levelsByParagraph } from "./bidi-levels.js";
import { isRegularWeight } from "./fallback-fonts.js";

const STRONG = /\p{L}/u;

/** How a paragraph's runs are sized and coloured (decided by the caller, page.ts). */
export interface BidiStyle {
  width: number;
  lineGap: number;
  align: "left" | "center" | "right" | "justify";
  /**
   * `align` is from the start of a right-to-left container (a list item or cell of a right-to-left
   * document) whichever way the paragraph runs: left-to-right text there starts at the right edge too.
   */
  inRightToLeft?: boolean;
  /**
   * A table's cell: every line's baseline at the body font's ascent, however tall its other fonts are (an
   * Arabic or Chinese cell's text sits on the same baseline as the Latin ones beside it, not 2-5 points
   * lower), and `align` the column's whichever way the text runs (an Arabic name in a left-aligned column
   * of a left-to-right document starts at the left, as the names above it do).
   */
  cell?: boolean;
  sizeOf(run: Run): number;
  colorOf(run: Run): string;
}

/**
 * Whether runs are laid out here rather than by pdfkit: right-to-left text or a right-to-left document,
 * text in more fonts than the run's DejaVu face (pdfkit measures a line in one font, so it would size
 * table rows and quotes of Chinese or Devanagari text wrongly), or text whose words have no spaces between
 * them (Thai and its kin: pdfkit would break them only at spaces).
 */
export function needsOwnLayout(doc: Doc, runs: readonly Run[]): boolean {
  return textOf(doc).rtl || runs.some((r) => hasRightToLeft(r.text) || !inOneFace(r.text, fontKeyFor(r)) || hasUnspacedScript(r.text));
}

interface Piece extends FontRun {
  start: number;
  end: number;
  run: Run;
  size: number;
}

interface Laid {
  text: string;
  levels: EmbeddingLevels;
  pieces: Piece[];
  lines: Line[];
}

/** A line of a paragraph: text[start, end), how tall, and how far its baseline is below its top. */
interface Line {
  start: number;
  end: number;
  height: number;
  ascent: number;
}

/**
 * Lays out a paragraph by the Unicode Bidirectional Algorithm (UAX #9, bidi-js) and breaks its lines
 * where UAX #14 allows (the linebreak package pdfkit uses too: between ideographs, never before closing
 * punctuation) and between the words of Thai and its kin (text/line-breaks.ts). A paragraph (each line
 * of one) takes the direction most of its letters run in, by far, else the document's (direction.ts,
 * paragraphDirection); code, its first strong character's.
 */
function layout(doc: Doc, runs: readonly Run[], style: BidiStyle): Laid {
  const text = runsText(runs) || " ";
  const context = textOf(doc);
  const tie = context.rtl ? "rtl" : "ltr";
  // Code keeps UAX #9's first strong character: a line of code with a string in Arabic runs left to right.
  const code = runs.length > 0 && runs.every((r) => r.code);
  const levels = code ? embeddingLevels(text, STRONG.test(text) ? "auto" : tie) : levelsByParagraph(text, (paragraph) => paragraphDirection(paragraph, tie));
  const pieces: Piece[] = [];
  let at = 0;
  for (const run of runs) {
    for (const fontRun of fontRuns(run.text, fontKeyFor(run), context.order)) {
      // A piece has one font and one embedding level.
      let from = at;
      for (let i = at; i <= at + fontRun.text.length; i++) {
        if (i === at + fontRun.text.length || (i > from && levels.levels[i] !== levels.levels[from])) {
          pieces.push({ ...fontRun, text: text.slice(from, i), start: from, end: i, run, size: style.sizeOf(run) });
          from = i;
        }
      }
      at += fontRun.text.length;
    }
  }
  if (pieces.length === 0) {
    const run = runs[0] ?? { text: " ", bold: false, italic: false, code: false };
    pieces.push({ ...fontRuns(" ", fontKeyFor(run))[0]!, start: 0, end: 1, run, size: style.sizeOf(run) });
  }
  return { text, levels, pieces, lines: measuredLines(doc, pieces, breakLines(doc, text, pieces, style.width), style.cell) };
}

/**
 * Each line as tall as the fonts it holds: a Latin paragraph with one Arabic or Thai word keeps its own
 * spacing but on that word's line (the paragraph once took the tallest font's line height throughout,
 * and looked double-spaced for one word). The baseline sits at the body font's ascent, lower on a line
 * whose font reaches higher (its marks), so nothing meets the line above.
 */
function measuredLines(doc: Doc, pieces: readonly Piece[], lines: readonly { start: number; end: number }[], bodyBaseline = false): Line[] {
  const body = fonts().regular;
  const bodyAscent = (body.ascent / body.unitsPerEm) * Math.max(...pieces.map((p) => p.size));
  const metrics = new Map<string, { height: number; ascent: number }>();
  const metricsOf = (piece: Piece) => {
    const key = `${piece.name}@${piece.size}`;
    let found = metrics.get(key);
    if (!found) {
      found = { height: useFont(doc, piece, piece.size).currentLineHeight(true), ascent: (piece.font.ascent / piece.font.unitsPerEm) * piece.size };
      metrics.set(key, found);
    }
    return found;
  };
  let first = 0;
  return lines.map(({ start, end }) => {
    while (first < pieces.length - 1 && pieces[first]!.end <= start) first++;
    let ascent = bodyAscent;
    let below = 0;
    // A blank line (its spaces trimmed) is as tall as the piece it starts in.
    for (let i = first; i < pieces.length && (i === first || pieces[i]!.start < end); i++) {
      const m = metricsOf(pieces[i]!);
      if (!bodyBaseline) ascent = Math.max(ascent, m.ascent);
      below = Math.max(below, m.height - m.ascent);
    }
    return { start, end, height: ascent + below, ascent };
  });
}

function breakLines(doc: Doc, text: string, pieces: readonly Piece[], width: number): { start: number; end: number }[] {
  const lines: { start: number; end: number }[] = [];
  const push = (start: number, end: number) => {
    let e = end;
    while (e > start && /\s/.test(text[e - 1]!)) e--;
    lines.push({ start, end: e });
  };
  let lineStart = 0;
  let lineWidth = 0;
  let last = 0;
  for (const found of lineBreaks(text)) {
    const end = found.position;
    const segment = text.slice(last, end);
    const visible = measure(doc, pieces, text, last, last + segment.trimEnd().length);
    if (visible > width) {
      // Wider than a line on its own (a long unspaced run, a word longer than a line): cut between characters.
      if (last > lineStart) push(lineStart, last);
      lineStart = last;
      lineWidth = 0;
      for (const [from, to] of clusters(text, last, end)) {
        const w = measure(doc, pieces, text, from, to);
        if (lineWidth + w > width && from > lineStart) {
          push(lineStart, from);
          lineStart = from;
          lineWidth = 0;
        }
        lineWidth += w;
      }
    } else {
      if (lineWidth + visible > width && last > lineStart) {
        push(lineStart, last);
        lineStart = last;
        lineWidth = 0;
      }
      lineWidth += measure(doc, pieces, text, last, end);
    }
    last = end;
    if (found.required && end < text.length) {
      push(lineStart, end);
      lineStart = end;
      lineWidth = 0;
    }
  }
  push(lineStart, text.length);
  return lines;
}

/** The width of text[from, to) set in its pieces' fonts (pieces are in text order: found by bisection). */
function measure(doc: Doc, pieces: readonly Piece[], text: string, from: number, to: number): number {
  let lo = 0;
  let hi = pieces.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pieces[mid]!.end <= from) lo = mid + 1;
    else hi = mid;
  }
  let width = 0;
  for (let i = lo; i < pieces.length && pieces[i]!.start < to; i++) {
    const piece = pieces[i]!;
    const a = Math.max(from, piece.start);
    const b = Math.min(to, piece.end);
    if (a < b) width += useFont(doc, piece, piece.size).widthOfString(text.slice(a, b));
  }
  return width;
}

/** The height {@link writeBidi} will take. */
export function bidiHeight(doc: Doc, runs: readonly Run[], style: BidiStyle): number {
  return layout(doc, runs, style).lines.reduce((sum, line) => sum + line.height + style.lineGap, 0);
}

/**
 * Writes a paragraph from (x, doc.y) in visual order: each line reordered by the bidi levels, right-to-left
 * stretches drawn word by word from the right, mirrored brackets, starting at the right margin when the
 * paragraph is right to left. Each glyph maps to the characters it stands for, so a reader that rebuilds
 * right-to-left lines (poppler, pdf.js) copies the text out in the order it was written.
 */
export function writeBidi(doc: Doc, runs: readonly Run[], x: number, style: BidiStyle, first: PDFKit.Mixins.TextOptions = {}): void {
  const laid = layout(doc, runs, style);
  const { text, levels, pieces } = laid;
  let y = doc.y;
  let extra: PDFKit.Mixins.TextOptions = first;
  for (const line of laid.lines) {
    const { ascent } = line;
    if (y + line.height > doc.page.height - doc.page.margins.bottom && y > doc.page.margins.top + 0.5) {
      // As pdfkit's wrapper goes on to a page: the marked content open here is closed on this page and
      // opened again on the next, so the rest of the paragraph stays tagged.
      (doc as unknown as { continueOnNewPage(): void }).continueOnNewPage();
      y = doc.y;
    }
    const items = visualItems(text, levels, pieces, line.start, line.end);
    const widths = items.map((item) => measure(doc, pieces, text, item.from, item.to));
    const total = widths.reduce((a, b) => a + b, 0);
    const rtl = (paragraphLevel(levels, line.start) & 1) === 1;
    const mirrored = style.cell ? style.inRightToLeft : rtl || style.inRightToLeft;
    const align = mirrored ? ({ left: "right", right: "left", justify: "right", center: "center" } as const)[style.align] : style.align;
    let at = align === "right" ? x + style.width - total : align === "center" ? x + (style.width - total) / 2 : x;
    items.forEach((item) => {
      const { piece } = item;
      const color = style.colorOf(piece.run);
      useFont(doc, piece, piece.size).fillColor(color);
      // Bold text in a font that ships no bold weight (CJK, emoji, N'Ko, …): its outlines are stroked as
      // well as filled, in the same colour, a thirtieth of the size wide.
      const fauxBold = piece.run.bold && isRegularWeight(piece.name);
      if (fauxBold)
        doc
          .save()
          .lineWidth(piece.size / 30)
          .strokeColor(color);
      // Italic text in a font that has no italic (every script but DejaVu's): slanted, as word processors do.
      const fauxItalic = piece.run.italic && piece.name !== "italic" && piece.name !== "boldItalic";
      const options = {
        ...extra,
        lineBreak: false,
        baseline: -ascent,
        link: piece.run.link ?? null,
        ...(item.rtl ? { features: [RIGHT_TO_LEFT] } : {}),
        ...(fauxBold ? { fill: true, stroke: true } : {}),
        ...(fauxItalic ? { oblique: FAUX_ITALIC_DEGREES } : {}),
      } as PDFKit.Mixins.TextOptions;
      extra = {};
      const slice = text.slice(item.from, item.to);
      // pdfkit lays out a string word by word, left to right: a right-to-left stretch goes word by word too.
      const words = item.rtl ? (slice.match(/\s+|\S+/gu) ?? []).reverse() : [slice];
      const start = at;
      const draw = () => {
        for (const word of words) {
          doc.text(word, at, y, options);
          at += doc.widthOfString(word, options);
        }
      };
      if (piece.run.link) tagsOf(doc).link(piece.run.linkId, piece.run.link, draw);
      else draw();
      if (fauxBold) doc.restore();
      // Links are underlined just under the shared baseline (pdfkit would go by each font's line height),
      // struck text struck a third of its size above it (where pdfkit strikes DejaVu text).
      if (piece.run.link) rule(doc, start, at, y + ascent + piece.size * 0.15, 0.5, style.colorOf(piece.run));
      if (piece.run.strike) rule(doc, start, at, y + ascent - piece.size * 0.35, piece.size < 10 ? 0.5 : Math.floor(piece.size / 10), style.colorOf(piece.run));
    });
    y += line.height + style.lineGap;
  }
  doc.x = x;
  doc.y = y;
}

/** The slant of italic text in a font without an italic, in degrees (DejaVu's own italic slants 11°). */
const FAUX_ITALIC_DEGREES = 11;

/** A horizontal line from x `from` to `to` at y. */
function rule(doc: Doc, from: number, to: number, y: number, width: number, color: string): void {
  doc.save().moveTo(from, y).lineTo(to, y).lineWidth(width).strokeColor(color).stroke().restore();
}

interface Item {
  piece: Piece;
  from: number;
  to: number;
  rtl: boolean;
}

/** The line's stretches in visual order, each within one piece and one direction. */
function visualItems(text: string, levels: EmbeddingLevels, pieces: readonly Piece[], start: number, end: number): Item[] {
  if (end <= start) return [];
  const order = reordered(levels.levels, start, end);
  let cursor = 0;
  const pieceAt = (i: number) => {
    // Visual order walks the line's pieces forwards and backwards, a few at a time.
    while (i < pieces[cursor]!.start) cursor--;
    while (i >= pieces[cursor]!.end) cursor++;
    return pieces[cursor]!;
  };
  const items: Item[] = [];
  for (const index of order) {
    const piece = pieceAt(index);
    const rtl = (levels.levels[index]! & 1) === 1;
    const last = items.at(-1);
    if (last && last.piece === piece && last.rtl === rtl && (rtl ? index === last.from - 1 : index === last.to)) {
      if (rtl) last.from = index;
      else last.to = index + 1;
    } else items.push({ piece, from: index, to: index + 1, rtl });
  }
  return items;
}

function paragraphLevel(levels: EmbeddingLevels, index: number): number {
  return levels.paragraphs.find((p) => index >= p.start && index <= p.end)?.level ?? 0;
}
