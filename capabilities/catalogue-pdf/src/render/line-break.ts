import LineBreaker from "linebreak";
import type { Run } from "../document/inline.js";
import { fontKeyFor, type FontKey } from "./fonts.js";
import { needsOwnLayout } from "../text/bidi-paragraph.js";
import { area, hasLongWord, type RunsOptions, STYLE, textWidth, writeLine } from "./page.js";
import type { Doc } from "./doc.js";

/** One line of runs (pieces of the runs broken), and its width without the spaces at its end. */
export interface Line {
  runs: Run[];
  width: number;
}

/** Text width in a face and size; the same string is measured once. */
export type Measure = (text: string, face: FontKey, size: number) => number;

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
  let known = new Map<string, number>();
  return (text, face, size) => {
    const key = `${face}\u0000${size}\u0000${text}`;
    let width = known.get(key);
    if (width === undefined) {
      width = textWidth(doc, text, face, size);
      if (known.size >= MAX_MEASURED) known = new Map();
      known.set(key, width);
    }
    return width;
  };
}

const TRAILING_SPACE = /\s+$/u;

/**
 * Breaks runs set left to right in DejaVu's faces into lines at most `width` wide, as pdfkit's line
 * wrapper does (at UAX #14 opportunities, by the linebreak package it uses; a word fits with the spaces
 * after it), each word measured once instead of by a wrapper per call. Undefined where that is not
 * enough: a hard line break, a word wider than the line or a long word (pdfkit's wrapper breaks inside it).
 */
export function breakLines(runs: readonly Run[], width: number, sizeOf: (run: Run) => number, measure: Measure): Line[] | undefined {
  const text = runs.map((run) => run.text).join("");
  // Long words (hashes, URLs) break inside where pdfkit's wrapper is given the chance (page.ts).
  if (hasLongWord(text)) return undefined;
  const ends: number[] = [];
  for (const run of runs) ends.push((ends.at(-1) ?? 0) + run.text.length);
  const lines: Line[] = [];
  let line: Run[] = [];
  let used = 0;
  let trailing = 0;
  let start = 0;
  const breaker = new LineBreaker(text);
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    if (bk.required && bk.position < text.length) return undefined;
    // The word [start, bk.position) may span runs (a bold part of a word): one piece per run.
    const pieces: Run[] = [];
    let wordWidth = 0;
    let spaceWidth = 0;
    for (let r = 0, from = 0; r < runs.length && from < bk.position; from = ends[r]!, r++) {
      const a = Math.max(start, from);
      const b = Math.min(bk.position, ends[r]!);
      if (a >= b) continue;
      const run = runs[r]!;
      const piece = text.slice(a, b);
      const face = fontKeyFor(run);
      const size = sizeOf(run);
      const space = b === bk.position ? (TRAILING_SPACE.exec(piece)?.[0] ?? "") : "";
      const ink = space ? piece.slice(0, -space.length) : piece;
      spaceWidth = space ? measure(space, face, size) : 0;
      wordWidth += (ink ? measure(ink, face, size) : 0) + spaceWidth;
      pieces.push({ ...run, text: piece });
    }
    start = bk.position;
    if (wordWidth > width) return undefined;
    if (used + wordWidth > width && line.length > 0) {
      lines.push({ runs: line, width: used - trailing });
      line = [];
      used = 0;
    }
    for (const piece of pieces) {
      const previous = line.at(-1);
      // Consecutive pieces of one run are drawn as one.
      if (previous && sameStyle(previous, piece)) line[line.length - 1] = { ...previous, text: previous.text + piece.text };
      else line.push(piece);
    }
    used += wordWidth;
    trailing = spaceWidth;
  }
  if (line.length > 0) lines.push({ runs: line, width: used - trailing });
  return lines;
}

const sameStyle = (a: Run, b: Run) => a.bold === b.bold && a.italic === b.italic && a.code === b.code && a.link === b.link;

/**
 * Writes a paragraph's, list item's, title's or heading's runs as {@link breakLines} breaks them, line by
 * line with {@link writeLine}, when it can: left-aligned text in DejaVu's (same-height) text faces, no
 * code, that ends on this page. Returns false, having drawn nothing, for everything else (pdfkit's wrapper
 * then sets it, across pages if need be). Of `first`, only a named destination is kept (a heading's),
 * placed where pdfkit's first fragment would place it.
 */
export function writeBroken(doc: Doc, runs: readonly Run[], options: RunsOptions): boolean {
  const { destination, ...otherFirst } = (options.first ?? {}) as { destination?: string };
  if (runs.length === 0 || Object.keys(otherFirst).length > 0 || (options.align ?? "left") !== "left" || runs.some((run) => run.code) || needsOwnLayout(doc, runs)) {
    return false;
  }
  const lines = breakLines(runs, options.width, () => options.size, measurer(doc));
  if (!lines) return false;
  const lineHeight = doc.font("regular").fontSize(options.size).currentLineHeight(true) + (options.lineGap ?? STYLE.lineGap);
  if (doc.y + lines.length * lineHeight > area(doc).bottom) return false;
  if (destination !== undefined) doc.addNamedDestination(destination, "XYZ", options.x, doc.y, null);
  const color = { fill: "" };
  for (const line of lines) writeLine(doc, line.runs, line.width, options, color);
  doc.fillColor(STYLE.text);
  return true;
}

/**
 * The height pdfkit's `heightOfString` gives runs all in one DejaVu text face (no code) at `size`, from
 * {@link breakLines}'s lines instead of pdfkit's wrapper (the same breaks, and the same sum, line by line);
 * undefined where breakLines can't say. Selects the face at `size`, as heightOfString leaves it.
 */
export function brokenHeight(doc: Doc, runs: readonly Run[], width: number, size: number, lineGap: number): number | undefined {
  const face = runs[0] ? fontKeyFor(runs[0]) : undefined;
  if (!face || runs.some((run) => run.code || fontKeyFor(run) !== face) || runs.every((run) => run.text === "") || runs.some((run) => LINE_END.test(run.text))) return undefined;
  const lines = breakLines(runs, width, () => size, measurer(doc));
  if (!lines) return undefined;
  const lineHeight = doc.font(face).fontSize(size).currentLineHeight(true);
  const gap = lineGap || (doc as unknown as { _lineGap?: number })._lineGap || 0;
  const start = doc.y;
  let y = start;
  for (let i = 0; i < lines.length; i++) y += lineHeight + gap;
  return y - start;
}

const LINE_END = /[\n\r\v\f\u0085\u2028\u2029]/;
