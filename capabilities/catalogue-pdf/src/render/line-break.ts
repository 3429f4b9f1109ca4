import LineBreaker from "linebreak";
import { type Run, runsText } from "../document/inline.js";
import { fontKeyFor, type FontKey } from "./fonts.js";
import { needsOwnLayout } from "../text/bidi-paragraph.js";
import { area, hasLongWord, type RunsOptions, STYLE, textWidth, writeLine } from "./page.js";
import type { Doc } from "./doc.js";
import { isSpace } from "../text/white-space.js";

/** One line of runs (pieces of the runs broken), and its width without the spaces at its end. */
export interface Line {
  runs: Run[];
  width: number;
}

/**
 * Text width in a face and size; the same string is measured once. `spaced`: a space follows the text
 * where it is drawn (a word measured without the space after it).
 */
export type Measure = (text: string, face: FontKey, size: number, spaced?: boolean) => number;

/** Strings a {@link measurer} keeps; past this it starts afresh (a table's words repeat a lot). */
const MAX_MEASURED = 4_096;

const measurers = new WeakMap<Doc, Measure>();

/** The {@link Measure} of `doc`, remembering what it measured. */
export function measurer(doc: Doc): Measure {
  let measure = measurers.get(doc);
  if (!measure) {
    measure = newMeasurer(doc);
    measurers.set(doc, measure);
  }
  return measure;
}

function newMeasurer(doc: Doc): Measure {
  // By face, then size, then text: a lookup builds no key string.
  let known = new Map<FontKey, Map<number, Map<string, number>>>();
  let count = 0;
  const widthsOf = (face: FontKey, size: number) => {
    let bySize = known.get(face);
    if (!bySize) known.set(face, (bySize = new Map()));
    let widths = bySize.get(size);
    if (!widths) bySize.set(size, (widths = new Map()));
    return widths;
  };
  return (text, face, size, spaced) => {
    let width = widthsOf(face, size).get(text);
    if (width === undefined) {
      // A new word is shaped with its space first, as its line will draw it: the face then keeps the word
      // without the space too, cut from that (text/shaping.ts), instead of shaping it twice.
      if (spaced) textWidth(doc, `${text} `, face, size);
      width = textWidth(doc, text, face, size);
      if (count >= MAX_MEASURED) {
        known = new Map();
        count = 0;
      }
      widthsOf(face, size).set(text, width);
      count += 1;
    }
    return width;
  };
}

/**
 * Breaks runs set left to right in DejaVu's faces into lines at most `width` wide, as pdfkit's line
 * wrapper does (at UAX #14 opportunities, by the linebreak package it uses; a word fits with the spaces
 * after it; a hard line break ends its line, an empty one if nothing is before it), each word measured
 * once instead of by a wrapper per call. The line-end characters are neither measured nor kept. Undefined
 * where that is not enough: a word wider than the line or a long word (pdfkit's wrapper breaks inside it).
 */
export function breakLines(runs: readonly Run[], width: number, sizeOf: (run: Run) => number, measure: Measure): Line[] | undefined {
  const text = runsText(runs);
  // Long words (hashes, URLs) break inside where pdfkit's wrapper is given the chance (page.ts).
  if (hasLongWord(text)) return undefined;
  const lines = new LineBuilder(runs, text);
  let used = 0;
  let trailing = 0;
  // The word is text[start, end); it starts in runs[first], whose text starts at text[firstFrom]. Words
  // come in order, so the scan for a word's runs starts where the last word's ended.
  let start = 0;
  let first = 0;
  let firstFrom = 0;
  const breaker = new LineBreaker(text);
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    const end = bk.position;
    // Before a hard line break (or the text's end), the word is text[start, stop): the line end is dropped.
    const stop = trailingStart(text, start, end, isLineEnd);
    // The word may span runs (a bold part of a word): measured a piece per run, the spaces after it apart.
    let wordWidth = 0;
    let spaceWidth = 0;
    for (let r = first, from = firstFrom; r < runs.length && from < stop; from += runs[r]!.text.length, r++) {
      const a = Math.max(start, from);
      const b = Math.min(stop, from + runs[r]!.text.length);
      if (a >= b) continue;
      const run = runs[r]!;
      const face = fontKeyFor(run);
      const size = sizeOf(run);
      const ink = b === stop ? trailingStart(text, a, b, isSpace) : b;
      spaceWidth = ink < b ? measure(text.slice(ink, b), face, size) : 0;
      wordWidth += (ink > a ? measure(text.slice(a, ink), face, size, ink < b && text.charCodeAt(ink) === 0x20) : 0) + spaceWidth;
    }
    if (wordWidth > width) return undefined;
    if (used + wordWidth > width && lines.hasLine()) {
      lines.endLine(used - trailing);
      used = 0;
    }
    for (let r = first, from = firstFrom; r < runs.length && from < stop; from += runs[r]!.text.length, r++) {
      const a = Math.max(start, from);
      const b = Math.min(stop, from + runs[r]!.text.length);
      if (a < b) lines.add(r, a, b);
    }
    while (first < runs.length && firstFrom + runs[first]!.text.length <= end) firstFrom += runs[first++]!.text.length;
    start = end;
    used += wordWidth;
    trailing = spaceWidth;
    if (stop < end) {
      // As pdfkit's wrapper: the line ends here, and a line end with nothing before it is an empty line.
      lines.endLine(used - trailing);
      used = 0;
      trailing = 0;
    }
  }
  if (lines.hasLine()) lines.endLine(used - trailing);
  return lines.lines;
}

/**
 * Where the code units matching `is` at the end of text[from, to) start (`to` when the last one does not
 * match): the line end before a hard break (isLineEnd), the white space after a word's ink (isSpace).
 */
function trailingStart(text: string, from: number, to: number, is: (unit: number) => boolean): number {
  let end = to;
  while (end > from && is(text.charCodeAt(end - 1))) end -= 1;
  return end;
}

/**
 * Lines of runs, built from pieces of `runs` (text[a, b) of runs[r]) in text order. Consecutive pieces of
 * one style are drawn as one, so a line's run is made once, when the next style or line starts, with the
 * first piece's run's properties and the pieces' text cut in one piece.
 */
class LineBuilder {
  readonly lines: Line[] = [];
  #line: Run[] = [];
  /** The run being extended: the index of its first piece's run (-1: none), and its text. */
  #run = -1;
  #from = 0;
  #to = 0;

  constructor(
    private readonly runs: readonly Run[],
    private readonly text: string,
  ) {}

  hasLine(): boolean {
    return this.#run !== -1;
  }

  add(r: number, a: number, b: number): void {
    if (this.#run !== -1 && sameStyle(this.runs[this.#run]!, this.runs[r]!)) {
      this.#to = b;
      return;
    }
    this.#endRun();
    this.#run = r;
    this.#from = a;
    this.#to = b;
  }

  endLine(width: number): void {
    this.#endRun();
    this.lines.push({ runs: this.#line, width });
    this.#line = [];
  }

  #endRun(): void {
    if (this.#run === -1) return;
    this.#line.push({ ...this.runs[this.#run]!, text: this.text.slice(this.#from, this.#to) });
    this.#run = -1;
  }
}

const sameStyle = (a: Run, b: Run) => a.bold === b.bold && a.italic === b.italic && a.code === b.code && a.link === b.link && a.linkId === b.linkId && a.strike === b.strike;

/**
 * Writes a paragraph's, list item's, title's or heading's runs as {@link breakLines} breaks them, line by
 * line with {@link writeLine}, when it can: left-aligned text in DejaVu's (same-height) text faces, no
 * code, that ends on this page. Returns false, having drawn nothing, for everything else (pdfkit's wrapper
 * then sets it, across pages if need be). Of `first`, only a named destination is kept (a heading's),
 * placed where pdfkit's first fragment would place it.
 */
export function writeBroken(doc: Doc, runs: readonly Run[], options: RunsOptions): boolean {
  const first = options.first as { destination?: string } | undefined;
  if (runs.length === 0 || !onlyDestination(first) || (options.align ?? "left") !== "left" || runs.some(isCode) || needsOwnLayout(doc, runs)) {
    return false;
  }
  const destination = first?.destination;
  const size = options.size;
  const lines = breakLines(runs, options.width, () => size, measurer(doc));
  if (!lines) return false;
  const lineHeight = doc.font("regular").fontSize(options.size).currentLineHeight(true) + (options.lineGap ?? STYLE.lineGap);
  if (doc.y + lines.length * lineHeight > area(doc).bottom) return false;
  if (destination !== undefined) doc.addNamedDestination(destination, "XYZ", options.x, doc.y, null);
  const color = { fill: "" };
  for (let i = 0; i < lines.length; i++) writeLine(doc, lines[i]!.runs, lines[i]!.width, options, color);
  doc.fillColor(STYLE.text);
  return true;
}

const isCode = (run: Run) => run.code;

/** Whether pdfkit options for a first fragment hold nothing but a named destination (or are not given). */
function onlyDestination(first: object | undefined): boolean {
  for (const key in first) if (key !== "destination") return false;
  return true;
}

/**
 * The height pdfkit's `heightOfString` gives runs all in one DejaVu text face (no code) at `size`, from
 * {@link breakLines}'s lines instead of pdfkit's wrapper (the same breaks, and the same sum, line by line);
 * undefined where breakLines can't say. Selects the face at `size`, as heightOfString leaves it.
 */
export function brokenHeight(doc: Doc, runs: readonly Run[], width: number, size: number, lineGap: number): number | undefined {
  const face = runs[0] ? fontKeyFor(runs[0]) : undefined;
  if (!face || runs.some((run) => run.code || fontKeyFor(run) !== face) || runs.every((run) => run.text === "")) return undefined;
  const lines = breakLines(runs, width, () => size, measurer(doc));
  if (!lines) return undefined;
  const lineHeight = doc.font(face).fontSize(size).currentLineHeight(true);
  const gap = lineGap || (doc as unknown as { _lineGap?: number })._lineGap || 0;
  const start = doc.y;
  let y = start;
  for (let i = 0; i < lines.length; i++) y += lineHeight + gap;
  return y - start;
}

/** Whether a UTF-16 code unit ends a line (UAX #14's BK, CR, LF and NL classes). */
const isLineEnd = (unit: number) => (unit >= 0x0a && unit <= 0x0d) || unit === 0x85 || unit === 0x2028 || unit === 0x2029;
