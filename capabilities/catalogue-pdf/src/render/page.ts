import type { Run } from "../document/inline.js";
import { bidiHeight, needsOwnLayout, writeBidi, type BidiStyle } from "../text/bidi-paragraph.js";
import { textOf, useFont } from "../text/doc-text.js";
import { type StructElement, tagsOf } from "./tags.js";
import { faceFont, type FontRun, fontRuns, inOneFace } from "../text/font-runs.js";
import { fonts, fontKeyFor, type FontKey } from "./fonts.js";
import type { Doc } from "./doc.js";
import { widthInFace } from "./font-encoding.js";
import { drawPlain } from "./plain-text.js";
import { isSpace } from "../text/white-space.js";

/** Type sizes, colours and spacing of every document (one calm, readable style). */
export const STYLE = {
  margin: { top: 64, bottom: 64, left: 56, right: 56 },
  body: 10.5,
  lineGap: 2.5,
  paragraphGap: 7,
  title: 22,
  subtitle: 13,
  heading: 15,
  small: 8.5,
  code: 9,
  text: "#1f2328",
  muted: "#5f6b7a",
  link: "#0b5cad",
  codeText: "#8a2b16",
  rule: "#d0d7de",
  fill: "#f3f4f6",
  zebra: "#f7f8fa",
  headerFill: "#e6eaef",
} as const;

/** Geometry of the writable area of the current page. */
export function area(doc: Doc): { left: number; width: number; top: number; bottom: number } {
  const { margins, width, height } = doc.page;
  return { left: margins.left, width: width - margins.left - margins.right, top: margins.top, bottom: height - margins.bottom };
}

/** The index of the page being written (pdfkit's buffered page range counts from 0). */
export function currentPage(doc: Doc): number {
  const range = doc.bufferedPageRange();
  return range.start + range.count - 1;
}

/** Starts a new page unless `height` points still fit below the current position. */
export function ensureSpace(doc: Doc, height: number): void {
  const { top, bottom } = area(doc);
  if (doc.y + height > bottom && doc.y > top + 0.5) doc.addPage();
}

export interface RunsOptions {
  x: number;
  width: number;
  size: number;
  color?: string;
  align?: "left" | "center" | "right" | "justify";
  lineGap?: number;
  /** Size of `code` runs (default 92 % of `size`, as monospace looks larger). */
  codeSize?: number;
  /** Colour of `code` runs (default: set off from the text). */
  codeColor?: string;
  /** pdfkit options for the first fragment only, e.g. `{ destination }` for a heading. */
  first?: PDFKit.Mixins.TextOptions;
  /** In a list item or cell of a right-to-left document: `align` counts from its right edge (see BidiStyle). */
  inRightToLeft?: boolean;
  /** A table's cell: text in other scripts keeps the body font's baseline and the column's alignment (see BidiStyle). */
  cell?: boolean;
  /** The text's last line goes on in the next call (pdfkit's wrapper; a long paragraph drawn in pieces). */
  continues?: boolean;
  /** This call goes on with the line the last one left (`continues`), not at (x, doc.y). */
  continuing?: boolean;
}

/** One run of one style, for text without markup. */
export function runOf(text: string, face: FontKey): Run {
  return { text, bold: face === "bold" || face === "boldItalic" || face === "monoBold", italic: face === "italic" || face === "boldItalic", code: face.startsWith("mono") };
}

/**
 * Writes inline runs as one flowing paragraph from (x, doc.y): each run in its face (and each script in
 * its own font instance, see SCRIPTS), links underlined and clickable (each in its Link element), struck
 * text struck through. Options are given on every call because pdfkit carries them over between continued
 * calls.
 */
export function writeRuns(doc: Doc, runs: readonly Run[], options: RunsOptions): void {
  const color = options.color ?? STYLE.text;
  const given = runs.length > 0 ? runs : [runOf(" ", "regular")];
  if (needsOwnLayout(doc, given)) {
    // Breaks by UAX #14 and, for a word wider than the line, between characters: no marks needed.
    writeBidi(doc, given, options.x, bidiStyle(options), options.first);
    doc.fillColor(STYLE.text);
    return;
  }
  const { order } = textOf(doc);
  const parts = lineBreaksAhead(given.flatMap((run) => fontRuns(run.text, fontKeyFor(run), order).map((piece) => ({ run, text: piece.text, piece }))));
  // Every font sits on the body font's baseline (pdfkit would hang each from its own ascender).
  const baseline = -ascentOf(Math.max(...given.map((run) => sizeOf(run, options))));
  parts.forEach(({ run, text: partText, piece }, i) => {
    const last = i === parts.length - 1;
    useFont(doc, piece, sizeOf(run, options));
    doc.fillColor(run.color ?? (run.link ? STYLE.link : run.code ? (options.codeColor ?? STYLE.codeText) : color));
    const textOptions = {
      ...(i === 0 ? options.first : {}),
      width: options.width,
      align: options.align ?? "left",
      lineGap: options.lineGap ?? STYLE.lineGap,
      continued: !last || !!options.continues,
      link: run.link ?? null,
      underline: !!run.link,
      strike: !!run.strike,
      baseline,
    } as PDFKit.Mixins.TextOptions;
    const text = breakableLongWords(partText);
    const draw = () => (i === 0 && !options.continuing ? doc.text(text, options.x, doc.y, textOptions) : doc.text(text, textOptions));
    if (run.link) tagsOf(doc).link(run.linkId, run.link, draw);
    else draw();
  });
  doc.fillColor(STYLE.text);
}

/**
 * The parts of a text with each one's closing line breaks moved to the start of the next: pdfkit drops a
 * line break that ends a part continued by another ("A<br>*B*" came out "AB"). Parts left empty are dropped.
 */
function lineBreaksAhead<T extends { text: string }>(parts: T[]): T[] {
  let carried = "";
  const kept: T[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    let text = carried + part.text;
    carried = "";
    if (i < parts.length - 1 && text.endsWith("\n")) {
      const end = text.length - /\n+$/.exec(text)![0].length;
      carried = text.slice(end);
      text = text.slice(0, end);
    }
    if (text !== "") kept.push(text === part.text ? part : { ...part, text });
  }
  return kept;
}

/**
 * Writes one line of runs, measured `lineWidth` wide, at (x, doc.y) and moves down a line, as
 * {@link writeRuns} would set it, without pdfkit's line wrapper: for text laid out already (left to right,
 * in DejaVu's faces; see render/line-break.ts). A table's cells are mostly one line, and wrapping each of
 * them again, word by word, was a third of a table-heavy report's time. The fill colour is set only where
 * it changes from `color.fill` (the colour in force, updated), not twice per cell.
 */
export function writeLine(doc: Doc, runs: readonly Run[], lineWidth: number, options: RunsOptions, color: { fill: string }): void {
  const slack = options.width - lineWidth;
  const align = options.align ?? "left";
  let x = options.x + (align === "right" ? slack : align === "center" ? slack / 2 : 0);
  const y = doc.y;
  let largest = Number.NEGATIVE_INFINITY;
  for (let r = 0; r < runs.length; r++) largest = Math.max(largest, sizeOf(runs[r]!, options));
  const baseline = -ascentOf(largest);
  const { order } = textOf(doc);
  for (let r = 0; r < runs.length; r++) {
    const run = runs[r]!;
    const fill = run.color ?? (run.link ? STYLE.link : run.code ? (options.codeColor ?? STYLE.codeText) : (options.color ?? STYLE.text));
    if (fill !== color.fill) {
      doc.fillColor(fill);
      color.fill = fill;
    }
    const face = fontKeyFor(run);
    // A run in its face alone (nearly every one) is drawn without making a list of its font runs.
    if (inOneFace(run.text, face)) x = drawPiece(doc, run, run.text, faceFont(face), x, y, baseline, options);
    else {
      const pieces = fontRuns(run.text, face, order);
      for (let p = 0; p < pieces.length; p++) x = drawPiece(doc, run, pieces[p]!.text, pieces[p]!, x, y, baseline, options);
    }
  }
  doc.x = options.x;
  doc.y = y + doc.currentLineHeight(true) + (options.lineGap ?? STYLE.lineGap);
}

/** Draws `text`, a piece of `run` in one font, from x as {@link writeLine} does; returns where it ends. */
function drawPiece(doc: Doc, run: Run, text: string, font: Omit<FontRun, "text">, x: number, y: number, baseline: number, options: RunsOptions): number {
  useFont(doc, font, sizeOf(run, options));
  const advance = run.link || run.strike ? undefined : drawPlain(doc, text, x, y, -baseline);
  if (advance !== undefined) return x + advance;
  const draw = () => doc.text(text, x, y, { lineBreak: false, baseline, link: run.link ?? null, underline: !!run.link, strike: !!run.strike } as PDFKit.Mixins.TextOptions);
  if (run.link) tagsOf(doc).link(run.linkId, run.link, draw);
  else draw();
  return doc.x;
}

export const sizeOf = (run: Run, options: Pick<RunsOptions, "size" | "codeSize">) => (run.code ? (options.codeSize ?? options.size * 0.92) : options.size);

/** DejaVu's ascent at `size`: where the baseline sits below the top of a line. */
function ascentOf(size: number): number {
  const font = fonts().regular;
  return (font.ascent / font.unitsPerEm) * size;
}

/** The height {@link writeRuns} takes for `runs` where it lays them out itself (bidi-paragraph.ts), else undefined. */
export function ownLayoutHeight(doc: Doc, runs: readonly Run[], options: RunsOptions): number | undefined {
  return needsOwnLayout(doc, runs) ? bidiHeight(doc, runs, bidiStyle(options)) : undefined;
}

function bidiStyle(options: RunsOptions): BidiStyle {
  const color = options.color ?? STYLE.text;
  return {
    width: options.width,
    lineGap: options.lineGap ?? STYLE.lineGap,
    align: options.align ?? "left",
    inRightToLeft: options.inRightToLeft ?? false,
    cell: options.cell ?? false,
    sizeOf: (run) => sizeOf(run, options),
    colorOf: (run) => run.color ?? (run.link ? STYLE.link : run.code ? (options.codeColor ?? STYLE.codeText) : color),
  };
}

/**
 * Gives words longer than any line (hashes, base64, long URLs) a zero-width break opportunity in every 24
 * characters: after the last `/`, `-`, `.`, `?`, `&`, `=`, `_` or `#` of each 24 when there is one in
 * their second half (a URL breaks between its parts, "example-" / "company.com/", not inside
 * "company"), else after the 24th. pdfkit otherwise breaks such a word by measuring ever shorter prefixes
 * of it, which is quadratic: one 10,000-character word took seconds and hundreds of MB.
 */
export function breakableLongWords(text: string): string {
  return text.replace(LONG_WORD, withBreaks);
}

/** The pieces of a word of 48 characters or more that {@link breakableLongWords} lets a line break between. */
export function longWordPieces(word: string): string[] {
  return withBreaks(word).split("\u200B");
}

/** A long word with its zero-width break opportunities (see {@link breakableLongWords}). */
function withBreaks(word: string): string {
  return word.replace(/.{24}(?=.)/gu, cutAfterSeparator);
}

/** 24 characters of a long word with a break after the last separator of their second half, else after them. */
function cutAfterSeparator(piece: string): string {
  const at = piece.slice(12).search(/[/.?&=_#-](?=[^/.?&=_#-]*$)/);
  return at < 0 ? `${piece}\u200B` : `${piece.slice(0, 12 + at + 1)}\u200B${piece.slice(12 + at + 1)}`;
}

const LONG_WORD = /[^\s\u200B]{48,}/gu;

/**
 * Whether text has a word {@link breakableLongWords} gives break opportunities (wrapped by pdfkit then):
 * what LONG_WORD finds, counted in one pass (the expression tried up to 48 characters from each one).
 */
export function hasLongWord(text: string): boolean {
  let length = 0; // characters since the last white space or zero-width space
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (isSpace(unit) || unit === 0x200b) length = 0;
    // The second half of a surrogate pair is one character with the first.
    else if (!(unit >= 0xdc00 && unit <= 0xdfff && i > 0 && isHighSurrogate(text.charCodeAt(i - 1))) && ++length >= LONG_WORD_CHARS) return true;
  }
  return false;
}

const LONG_WORD_CHARS = 48;
const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;

export interface LineOptions {
  size: number;
  color?: string;
  /** Cut with "…" to fit this width. */
  maxWidth?: number;
  /** x is the line's right end instead of its start. */
  alignRight?: boolean;
  /**
   * Makes the line a link to a named destination: its Link element takes every line given the same `id`
   * in the same element, its annotations `description` as their /Contents.
   */
  goTo?: { name: string; id: number; description: string };
}

/**
 * Draws one line of text at (x, y) without wrapping or moving the cursor, each script in its font
 * instance: for page numbers, headers, footers and contents lines. Returns the width drawn.
 */
export function drawLine(doc: Doc, text: string, face: FontKey, x: number, y: number, options: LineOptions): number {
  const { size } = options;
  let line = text;
  if (options.maxWidth !== undefined && textWidth(doc, line, face, size) > options.maxWidth) {
    const chars = Array.from(line);
    while (chars.length > 0 && textWidth(doc, `${chars.join("")}…`, face, size) > options.maxWidth) chars.pop();
    // Cut after a whole word when one ends in the last third of what fits ("…fit on a…", not "…a singl…").
    const kept = chars.join("");
    const space = kept.trimEnd().lastIndexOf(" ");
    line = `${(space > (kept.length * 2) / 3 ? kept.slice(0, space) : kept).trimEnd()}…`;
  }
  const width = textWidth(doc, line, face, size);
  const saved = { x: doc.x, y: doc.y };
  const start = options.alignRight ? x - width : x;
  const color = options.color ?? STYLE.text;
  const draw = (link?: StructElement) => {
    doc.fillColor(color);
    if (needsOwnLayout(doc, [runOf(line, face)])) {
      doc.y = y;
      writeBidi(doc, [runOf(line, face)], start, { width: width + 1, lineGap: 0, align: "left", sizeOf: () => size, colorOf: () => color });
    } else {
      let at = start;
      const pieces = fontRuns(line, face, textOf(doc).order);
      for (let p = 0; p < pieces.length; p++) {
        const piece = pieces[p]!;
        useFont(doc, piece, size);
        // Written as pdfkit would write it, without its text machinery (see writeLine), unless it has line
        // breaks (pdfkit draws each line a line lower).
        const drawn = piece.text.includes("\n") ? undefined : drawPlain(doc, piece.text, at, y, ascentOf(size));
        if (drawn === undefined) doc.text(piece.text, at, y, { lineBreak: false, baseline: -ascentOf(size) } as PDFKit.Mixins.TextOptions);
        at += doc.widthOfString(piece.text);
      }
    }
    // One annotation over the line (pdfkit would make one for each piece or word), in its Link element.
    if (options.goTo) doc.goTo(start, y, width, doc.font(face).fontSize(size).currentLineHeight(), options.goTo.name, link ? ({ structParent: link } as object) : {});
  };
  if (options.goTo) tagsOf(doc).link(options.goTo.id, options.goTo.description, draw);
  else draw();
  doc.x = saved.x;
  doc.y = saved.y;
  doc.fillColor(STYLE.text);
  return width;
}

/** The width of one line of text in a face, each character in the font that sets it. */
export function textWidth(doc: Doc, text: string, face: FontKey, size: number): number {
  if (inOneFace(text, face)) return widthInFace(fonts()[face], text, size);
  let width = 0;
  for (const piece of fontRuns(text, face, textOf(doc).order)) width += useFont(doc, piece, size).widthOfString(piece.text);
  return width;
}
