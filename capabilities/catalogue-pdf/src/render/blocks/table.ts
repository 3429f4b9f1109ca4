import LineBreaker from "linebreak";
import { ToolError } from "@selu-catalogue/kit";
import { type Run, runsText } from "../../document/inline.js";
import type { PreparedBlock } from "../../document/prepare.js";
import { NO_NUMBER, NUMBER } from "../../document/numbers.js";
import { needsOwnLayout } from "../../text/bidi-paragraph.js";
import { rightToLeft } from "../../text/doc-text.js";
import { type FontKey, fontKeyFor } from "../fonts.js";
import { breakLines, measurer, type Line, type Measure } from "../line-break.js";
import { isSpace } from "../../text/white-space.js";
import { ownLayout, textWidthIn, turnPages } from "../orientation.js";
import { area, ensureSpace, longWordPieces, type RunsOptions, STYLE, writeLine, writeRuns } from "../page.js";
import { runsHeight } from "../set-runs.js";
import { fittingPart } from "./row-parts.js";
import type { Doc } from "../doc.js";
import { inReadingOrder, NO_OPTIONS } from "../struct-element.js";
import { type ElementOptions, tagsOf, type Tags } from "../tags.js";

type Table = Extract<PreparedBlock, { kind: "table" }>;
type Align = NonNullable<Table["columns"][number]["align"]>;

const PAD = 4;
/** DejaVu's line box has more room below the baseline than above the capitals: move text down to look centred. */
const OPTICAL_SHIFT = 1.5;
const SIZE = 9.5;
/**
 * The smallest text a table is set in to keep its numbers and words whole: a table of many columns (twelve
 * months of amounts) is set smaller, down to this, before any number breaks (at 9.5 points "257,514" broke
 * over two lines in each of twelve columns on A4 portrait).
 */
const MIN_SIZE = 7;
/** Rows sampled to size the columns: enough to be representative, bounded for long tables. */
const SAMPLE_ROWS = 200;

/** The height a table needs where it starts: its header row and first row, which are kept together. */
export function tableStartHeight(doc: Doc, table: Table): number {
  const { header, first } = tableStart(doc, table);
  return header.height + (first?.height ?? 0);
}

/**
 * A table's columns sized to their content within the text width, its header row and first row laid out:
 * once per table, as a heading above it and the space an image left ask for its start before it is drawn.
 */
function tableStart(doc: Doc, table: Table): TableStart {
  let start = starts.get(table);
  if (!start) {
    start = layOutStart(doc, table);
    starts.set(table, start);
  }
  return start;
}

type TableStart = ReturnType<typeof layOutStart>;
const starts = new WeakMap<Table, TableStart>();

function layOutStart(doc: Doc, table: Table) {
  const measure = measurer(doc);
  const own = ownLayout(doc);
  let available = textWidthIn(doc, own);
  let columns = columnsAtSize(doc, table, available);
  // Too wide for a portrait page even in the smallest text: set on landscape pages (text after it goes on
  // on a page of the document's own orientation), as a person would turn the page for it in a word processor.
  const turned = own === "portrait" && tooWide(columns.words, available);
  if (turned) available = textWidthIn(doc, "landscape");
  const size = Math.max(MIN_SIZE, Math.floor(wholeWordsSize(columns.words, available) * 4) / 4);
  if (size < SIZE || turned) columns = columnWidths(table, available, measure, size);
  const { widths, natural, numeric } = columns;
  // A column given no alignment: amounts, counts and dates on the right, where their digits line up.
  const aligns = table.columns.map((c, i) => c.align ?? (numeric[i] && !rightToLeft(doc) ? "right" : "left"));
  const rowOf = rows(doc, widths, natural, measure, size);
  const header = rowOf(
    table.columns.map((c) => c.header),
    -1,
  );
  return { turned, widths, size, aligns, rowOf, header, first: table.rows.length > 0 ? rowOf(table.rows[0]!, 0) : undefined };
}

/** Whether a table's numbers and short words can't all stay whole `available` points wide, even in MIN_SIZE text. */
function tooWide(words: readonly number[], available: number): boolean {
  return wholeWordsSize(words, available) < MIN_SIZE;
}

/** Whether a table is too wide for a portrait page of `doc` (measured anew, so its layout is not fixed yet). */
export function tooWideForPortrait(doc: Doc, table: Table): boolean {
  const width = textWidthIn(doc, "portrait");
  return tooWide(columnsAtSize(doc, table, width).words, width);
}

type Columns = ReturnType<typeof columnWidths>;
// A table's columns at SIZE, by the width they were sized for: a document given no orientation asks
// whether each table fits a portrait page before its layout, which then starts from the same columns.
const atSize = new WeakMap<Table, { width: number; columns: Columns }>();

/** {@link columnWidths} at SIZE, measured once for a table and width. */
function columnsAtSize(doc: Doc, table: Table, width: number): Columns {
  const kept = atSize.get(table);
  if (kept?.width === width) return kept.columns;
  const columns = columnWidths(table, width, measurer(doc), SIZE);
  atSize.set(table, { width, columns });
  return columns;
}

/** Whether a table is set on landscape pages in a portrait document (see layOutStart). */
export function tableTurned(doc: Doc, table: Table): boolean {
  return tableStart(doc, table).turned;
}

/**
 * The largest text size, SIZE at most, at which every column keeps its longest word whole within
 * `available` points: each number, and every other word of up to ORDINARY_WORD_CHARS characters (a URL or
 * an email address breaks between its parts instead of making the whole table small). `words` are those
 * widths at SIZE; a word's width is in proportion to the size.
 */
function wholeWordsSize(words: readonly number[], available: number): number {
  const text = words.reduce((sum, w) => sum + Math.max(w, 16), 0);
  const room = available - words.length * (2 * PAD + 1);
  return text <= room ? SIZE : (SIZE * room) / text;
}

/** A word longer than this (in UTF-16 units) may break in a narrow column rather than shrink the table's text. */
const ORDINARY_WORD_CHARS = 20;

/**
 * A table: columns sized to their content within the text width, wrapping cells, the header row repeated
 * at the top of every page the table continues on, a row split across pages only when taller than one.
 */
export async function renderTable(doc: Doc, table: Table, pause: () => Promise<void>): Promise<void> {
  const { turned, widths, size, aligns, rowOf, header, first } = tableStart(doc, table);
  // The blocks' flow turned the page already (flow.ts, layoutFor); the area is the turned page's.
  turnPages(doc, turned ? "landscape" : ownLayout(doc));
  const { left, top, bottom } = area(doc);
  const tags = tagsOf(doc);
  // The header row is tagged once (TH, scope column); its repeats on later pages are artifacts, their
  // links drawn as text (an annotation in an artifact would have no place in the structure tree).
  let repeated: Row | undefined;
  const drawHeader = (cell: "TH" | undefined) => drawRow(doc, tags, cell ? header : (repeated ??= unlinked(header)), widths, size, aligns, left, STYLE.headerFill, cell);

  const pageRoom = bottom - top - header.height;
  // A first row taller than a page starts wherever a few of its lines fit (it goes on over pages).
  ensureSpace(doc, header.height + Math.min(first?.height ?? 0, first && first.height > pageRoom ? MIN_PART : Number.POSITIVE_INFINITY));
  tags.open("Table");
  tags.group("THead", () => drawHeader("TH"));
  tags.open("TBody");
  for (let r = 0; r < table.rows.length; r++) {
    if (r % 25 === 24) await pause();
    const row = r === 0 ? first! : rowOf(table.rows[r]!, r);
    const fill = r % 2 === 1 ? STYLE.zebra : undefined;
    if (row.height > pageRoom) {
      // Taller than a page: drawn in parts, each as much of every cell as fits where it is drawn.
      let rest: Run[][] = row.cells.map((cell) => [...cell]);
      while (rest.some((cell) => cell.length > 0)) {
        await pause();
        const parts = doc.y + MIN_PART <= bottom ? partsFitting(rest, bottom - doc.y, rowOf) : undefined;
        if (!parts) {
          if (doc.y <= top + header.height + 0.5) throw new ToolError(`${table.field}.rows[${r}]: a piece of the row is taller than a page; split its text over several rows`);
          doc.addPage();
          drawHeader(undefined);
          continue;
        }
        drawRow(
          doc,
          tags,
          rowOf(
            parts.map(([part]) => part),
            PART,
          ),
          widths,
          size,
          aligns,
          left,
          fill,
          "TD",
        );
        rest = parts.map(([, after]) => after);
      }
      continue;
    }
    if (doc.y + row.height > bottom) {
      doc.addPage();
      drawHeader(undefined);
    }
    drawRow(doc, tags, row, widths, size, aligns, left, fill, "TD");
  }
  tags.close();
  tags.close();
  doc.x = left;
  doc.y += STYLE.paragraphGap + 2;
}

/** The row index a part of a row is laid out as: none sampled, so its cells are measured anew. */
const PART = -2;
/** The least room worth starting a part of a tall row in: about four lines. */
const MIN_PART = 48;

/**
 * Every cell's part that fits in `room` with the rest after it (a cell done already is empty in both);
 * undefined when some cell left can't put a line there.
 */
function partsFitting(cells: readonly Run[][], room: number, rowOf: (cells: readonly Run[][], r: number) => Row): [Run[], Run[]][] | undefined {
  const parts: [Run[], Run[]][] = [];
  for (const [c, cell] of cells.entries()) {
    if (cell.length === 0) {
      parts.push([[], []]);
      continue;
    }
    const alone = (runs: readonly Run[]) =>
      rowOf(
        cells.map((_, i) => (i === c ? (runs as Run[]) : [])),
        PART,
      ).height;
    const part = fittingPart(cell, room, alone);
    if (!part) return undefined;
    parts.push(part);
  }
  return parts;
}

/** A row laid out: its cells, each as lines where we broke it (else pdfkit wraps it), and its height. */
interface Row {
  cells: readonly Run[][];
  lines: readonly (Line[] | undefined)[];
  height: number;
}

/** `row` with its links as plain text. */
function unlinked(row: Row): Row {
  const plain = ({ link, linkId, ...run }: Run): Run => run;
  return { ...row, cells: row.cells.map((runs) => runs.map(plain)), lines: row.lines.map((lines) => lines?.map((line) => ({ ...line, runs: line.runs.map(plain) }))) };
}

/** One row; its cells tagged as `cell` (TH or TD), or the whole row an artifact without one (a repeated header). */
function drawRow(
  doc: Doc,
  tags: Tags,
  { cells, lines, height }: Row,
  widths: readonly number[],
  size: number,
  aligns: readonly Align[],
  left: number,
  fill: string | undefined,
  cell: "TH" | "TD" | undefined,
): void {
  const y = doc.y;
  const total = widths.reduce((a, b) => a + b, 0);
  const isHeader = cell !== "TD";
  if (fill) tags.artifact(() => doc.save().rect(left, y, total, height).fill(fill).restore());
  // A right-to-left document's table starts at the right: its first column is the rightmost.
  const rtl = rightToLeft(doc);
  const drawCells = () => {
    let x = rtl ? left + total : left;
    // The colour in force: writeLine sets it where a run's differs; writeRuns leaves the text colour.
    const color = { fill: STYLE.text };
    doc.fillColor(color.fill);
    // One function draws each cell in turn, `c`, with one options object updated for it (a table has
    // thousands of cells: no closure or options each; neither outlives the call that draws the cell).
    let c = 0;
    const options: RunsOptions = { x: 0, width: 0, size, align: "left", lineGap: 1, inRightToLeft: rtl, cell: true };
    const draw = () => {
      const laid = lines[c];
      if (laid) for (let i = 0; i < laid.length; i++) writeLine(doc, laid[i]!.runs, laid[i]!.width, options, color);
      else {
        writeRuns(doc, cells[c]!, options);
        color.fill = STYLE.text;
      }
    };
    for (c = 0; c < cells.length; c++) {
      if (rtl) x -= widths[c]!;
      doc.y = y + PAD + OPTICAL_SHIFT;
      options.x = x + PAD;
      options.width = widths[c]! - 2 * PAD;
      options.align = aligns[c]!;
      if (cell) tags.leaf(cell, draw, inReadingOrder(runsText(cells[c]!), cell === "TH" ? COLUMN_HEADER : NO_OPTIONS));
      else draw();
      if (!rtl) x += widths[c]!;
    }
    if (color.fill !== STYLE.text) doc.fillColor(STYLE.text);
  };
  if (cell) tags.group("TR", drawCells);
  else tags.artifact(drawCells);
  tags.artifact(() =>
    doc
      .save()
      .moveTo(left, y + height)
      .lineTo(left + total, y + height)
      .lineWidth(isHeader ? 0.9 : 0.4)
      .strokeColor(isHeader ? STYLE.muted : STYLE.rule)
      .stroke()
      .restore(),
  );
  doc.y = y + height;
}

/** A run's text size in a table set at `size`: code a little smaller, as in paragraphs. */
const runSize = (run: Run, size: number) => (run.code ? size * 0.92 : size);

// A header cell's structure element options, shared by every header cell (only read; others take NO_OPTIONS).
const COLUMN_HEADER: ElementOptions = Object.freeze({ scope: "Column" });

const FACE_BITS: Readonly<Record<FontKey, number>> = { regular: 1, bold: 2, italic: 4, boldItalic: 8, mono: 16, monoBold: 32 };

/**
 * Lays out rows (`r` = -1 for the header) once, for their height and for drawing: each cell's words are
 * measured once (column sizing measured the sampled rows' cells already) and broken into lines by
 * {@link breakLines}; only text in other scripts or directions, hard line breaks and words wider than
 * their column take pdfkit's wrapper or the bidi layout (measured for the height by {@link runsHeight}).
 */
function rows(doc: Doc, widths: readonly number[], natural: ReadonlyMap<number, readonly number[]>, measure: Measure, size: number) {
  const sizeOf = (run: Run) => runSize(run, size);
  // A line's height in the faces a cell uses (the set of them as bits).
  const oneLine = new Map<number, number>();
  const lineHeight = (cell: readonly Run[], c: number) => {
    let key = 0;
    for (let i = 0; i < cell.length; i++) key |= FACE_BITS[fontKeyFor(cell[i]!)];
    let height = oneLine.get(key);
    if (height === undefined) {
      // A space in each face the cell uses, once: a space per run would wrap in a cell of many runs (a
      // bold word, an italic one, code…), and the height kept for the faces would be several lines.
      const faces = cell.filter((run, i) => cell.findIndex((other) => fontKeyFor(other) === fontKeyFor(run)) === i);
      height = runsHeight(
        doc,
        faces.map((run) => ({ ...run, text: " " })),
        widths[c]! - 2 * PAD,
        size,
        1,
        true,
      );
      oneLine.set(key, height);
    }
    return height;
  };
  return (cells: readonly Run[][], r: number): Row => {
    const lineWidths = natural.get(r) ?? cells.map((cell) => lineWidthOf(cell, measure, size));
    let height = 0;
    const lines = cells.map((cell, c) => {
      const width = widths[c]! - 2 * PAD;
      const simple = cell.length > 0 && !hasLineBreak(cell);
      const laid = !simple || needsOwnLayout(doc, cell) ? undefined : lineWidths[c]! <= width - 1 ? [{ runs: cell, width: lineWidths[c]! }] : breakLines(cell, width, sizeOf, measure);
      // Text that fits on one line is one line high however it is set.
      const count = laid?.length ?? (simple && lineWidths[c]! <= width - 1 ? 1 : 0);
      height = Math.max(height, count > 0 ? count * lineHeight(cell, c) : runsHeight(doc, cell, width, size, 1, true));
      return laid;
    });
    return { cells, lines, height: height + 2 * PAD };
  };
}

function hasLineBreak(cell: readonly Run[]): boolean {
  for (let i = 0; i < cell.length; i++) if (cell[i]!.text.includes("\n")) return true;
  return false;
}

/**
 * Column widths from the content: columns whose text fits in a fair share of the width get what they
 * need; the rest share what is left in proportion to their text, each keeping at least its longest word
 * (so words break mid-way only when the table can't fit otherwise).
 */
function columnWidths(table: Table, available: number, measure: Measure, size: number): { widths: number[]; natural: Map<number, number[]>; words: number[]; numeric: boolean[] } {
  const sample = [table.columns.map((c) => c.header), ...table.rows.slice(0, SAMPLE_ROWS)];
  const count = table.columns.length;
  const longestWord = new Array<number>(count).fill(0);
  const longestLine = new Array<number>(count).fill(0);
  // Each column's longest word that should not break (see fittingSize).
  const wholeWord = new Array<number>(count).fill(0);
  // Each sampled cell's width on one line, by row (-1 the header), for the row heights.
  const natural = new Map<number, number[]>();
  // Columns whose sampled cells are numbers (amounts, dates, percentages), but for blanks and dashes: their
  // words are cut last.
  const numeric = table.columns.map((_, c) => {
    const texts = table.rows.slice(0, SAMPLE_ROWS).map((row) => runsText(row[c]!).trim());
    return texts.some((text) => NUMBER.test(text)) && texts.every((text) => NUMBER.test(text) || NO_NUMBER.test(text));
  });
  sample.forEach((row, r) => {
    const lineWidths = row.map((cell, c) => {
      const lineWidth = lineWidthOf(cell, measure, size, (word, chars) => {
        longestWord[c] = Math.max(longestWord[c]!, word);
        if (numeric[c] || chars <= ORDINARY_WORD_CHARS) wholeWord[c] = Math.max(wholeWord[c]!, word);
      });
      longestLine[c] = Math.max(longestLine[c]!, lineWidth);
      return lineWidth;
    });
    natural.set(r - 1, lineWidths);
  });
  return { widths: widthsFor(longestWord, longestLine, available, numeric), natural, words: wholeWord, numeric };
}

/**
 * A cell's width on one line, or its widest line when it has line breaks (an address given as lines);
 * `eachWord` is given the width of each of its words (measured only then, and a run of one word only once).
 */
function lineWidthOf(cell: readonly Run[], measure: Measure, tableSize: number, eachWord?: (width: number, chars: number) => void): number {
  let widest = 0;
  let lineWidth = 0;
  for (let r = 0; r < cell.length; r++) {
    const { text } = cell[r]!;
    const face = fontKeyFor(cell[r]!);
    const size = runSize(cell[r]!, tableSize);
    const lines = text.includes("\n") ? text.split("\n") : [text];
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) {
        widest = Math.max(widest, lineWidth);
        lineWidth = 0;
      }
      const width = measure(lines[i]!, face, size);
      lineWidth += width;
      if (eachWord && lines[i]) eachWordOf(lines[i]!, width, face, size, measure, eachWord);
    }
  }
  return Math.max(widest, lineWidth);
}

/**
 * Gives `eachWord` the width of each piece of `text` a line can't break inside, in `face` at `size`: its
 * words (between white space), cut after a hyphen or dash as the line breaker cuts them
 * (`billing@acme-corporation-international.com`), and a word of 48 characters or more in the pieces it
 * is drawn in (a URL between its parts, a hash every 24 characters; page.ts, longWordPieces). A word followed by a space needs that space too: the line breaker fits a
 * word with the spaces after it (as pdfkit's wrapper does). `width` is the text's own, for one word alone.
 */
function eachWordOf(text: string, width: number, face: FontKey, size: number, measure: Measure, eachWord: (width: number, chars: number) => void): void {
  let start = -1; // where the current word starts (-1: between words)
  let spaced = false;
  const word = (from: number, to: number) => {
    const piece = text.slice(from, to);
    const after = to < text.length ? measure(" ", face, size) : 0;
    const parts = to - from >= LONG_WORD_CHARS ? longWordPieces(piece) : BREAKS_AFTER.test(piece) ? breakPieces(piece) : undefined;
    if (!parts) eachWord((from === 0 && to === text.length ? width : measure(piece, face, size)) + after, to - from);
    else parts.forEach((part, i) => eachWord(measure(part, face, size) + (i === parts.length - 1 ? after : 0), part.length));
  };
  for (let i = 0; i < text.length; i++) {
    if (!isSpace(text.charCodeAt(i))) {
      if (start === -1) start = i;
      continue;
    }
    spaced = true;
    if (start !== -1) word(start, i);
    start = -1;
  }
  if (!spaced) word(0, text.length);
  else if (start !== -1) word(start, text.length);
}

// A word of this many characters (UTF-16 units here; close enough for a width) is drawn in pieces (page.ts).
const LONG_WORD_CHARS = 48;
// Hyphens and dashes, after which UAX #14 lets a line break inside a word.
const BREAKS_AFTER = /[-\u00AD\u2010\u2012-\u2014]/;

/** A word's pieces between the line-break opportunities UAX #14 gives inside it (the linebreak package). */
function breakPieces(word: string): string[] {
  const pieces: string[] = [];
  const breaker = new LineBreaker(word);
  let last = 0;
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    if (bk.position > last) pieces.push(word.slice(last, bk.position));
    last = bk.position;
  }
  return pieces;
}

/** `values` with the largest cut down to one cap, the highest at which they sum to `total` at most. */
function capped(values: readonly number[], total: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  let rest = total;
  for (let i = 0; i < sorted.length; i++) {
    const left = sorted.length - i;
    if (sorted[i]! * left > rest) return values.map((v) => Math.min(v, rest / left));
    rest -= sorted[i]!;
  }
  return [...values];
}

/**
 * Column widths from each column's longest word and longest line (see {@link columnWidths}). When the
 * longest words don't all fit, columns given their longest line first give back down to their longest
 * word (a line wraps rather than a word breaking), then the longest words are cut down (to one width, as
 * much as it takes), those of `numeric` columns last: a URL or an email address breaks inside, not every
 * other column's words, nor an amount ("$1,234,567." / "89" read as two numbers).
 */
function widthsFor(longestWord: readonly number[], longestLine: readonly number[], available: number, numeric: readonly boolean[]): number[] {
  const count = longestWord.length;
  const mins = longestWord.map((w) => Math.min(Math.max(w, 16) + 2 * PAD + 1, available / 2));
  const wants = longestLine.map((w, c) => Math.max(w + 2 * PAD + 1, mins[c]!));
  const sumWant = wants.reduce((a, b) => a + b, 0);
  // Everything fits on one line: spread the slack evenly so the table spans the text width.
  if (sumWant <= available) return wants.map((w) => w + (available - sumWant) / count);
  const widths = new Array<number>(count).fill(0);
  let open = [...Array(count).keys()];
  let remaining = available;
  // The columns open still need their longest words at least: a column that fits in a fair share gets
  // what it wants only while that leaves them as much.
  let openMins = mins.reduce((a, b) => a + b, 0);
  for (let settled = true; settled && open.length > 0; ) {
    settled = false;
    const share = remaining / open.length;
    for (const c of [...open].sort((a, b) => wants[a]! - wants[b]!)) {
      if (wants[c]! > share || remaining - wants[c]! < openMins - mins[c]!) continue;
      widths[c] = wants[c]!;
      remaining -= wants[c]!;
      openMins -= mins[c]!;
      settled = true;
    }
    open = open.filter((c) => widths[c] === 0);
  }
  const sumMin = open.reduce((a, c) => a + mins[c]!, 0);
  // The settled columns give back what they hold over their longest word, the most first.
  const settled = [...Array(count).keys()].filter((c) => widths[c]! > 0).sort((a, b) => widths[b]! - mins[b]! - (widths[a]! - mins[a]!));
  for (const c of settled) {
    if (sumMin <= remaining) break;
    const give = Math.max(0, Math.min(widths[c]! - mins[c]!, sumMin - remaining));
    widths[c] = widths[c]! - give;
    remaining += give;
  }
  if (sumMin >= remaining) {
    const words = open.filter((c) => !numeric[c]);
    const numbers = open.filter((c) => numeric[c]);
    const numbersMin = numbers.reduce((a, c) => a + mins[c]!, 0);
    // Numbers keep their width while the other columns can take the cut (each keeping 16 points).
    const cutWordsOnly = words.length > 0 && remaining - numbersMin >= words.length * 16;
    const cutting = cutWordsOnly ? words : open;
    const cut = capped(
      cutting.map((c) => mins[c]!),
      cutWordsOnly ? remaining - numbersMin : remaining,
    );
    cutting.forEach((c, i) => (widths[c] = cut[i]!));
    if (cutWordsOnly) for (const c of numbers) widths[c] = mins[c]!;
    return widths;
  }
  const extra = remaining - sumMin;
  const wantMore = open.reduce((a, c) => a + wants[c]! - mins[c]!, 0);
  for (const c of open) widths[c] = mins[c]! + ((wants[c]! - mins[c]!) / wantMore) * extra;
  return widths;
}
