import { ToolError } from "@selu-catalogue/kit";
import type { Run } from "../../document/inline.js";
import type { PreparedBlock } from "../../document/prepare.js";
import { rightToLeft } from "../../text/doc-text.js";
import { fontKeyFor } from "../fonts.js";
import { area, ensureSpace, runsHeight, STYLE, textWidth, writeRuns, type Doc } from "../page.js";

type Table = Extract<PreparedBlock, { kind: "table" }>;
type Align = Table["columns"][number]["align"];

const PAD = 4;
/** DejaVu's line box has more room below the baseline than above the capitals: move text down to look centred. */
const OPTICAL_SHIFT = 1.5;
const SIZE = 9.5;
/** Rows sampled to size the columns: enough to be representative, bounded for long tables. */
const SAMPLE_ROWS = 200;

/**
 * A table: columns sized to their content within the text width, wrapping cells, the header row repeated
 * at the top of every page the table continues on, rows never split across pages.
 */
export async function renderTable(doc: Doc, table: Table, pause: () => Promise<void>): Promise<void> {
  const { left, width, top, bottom } = area(doc);
  const widths = columnWidths(doc, table, width);
  const aligns = table.columns.map((c) => c.align);
  const header = table.columns.map((c) => c.header);
  const headerHeight = rowHeight(doc, header, widths);
  const drawHeader = () => drawRow(doc, header, headerHeight, widths, aligns, left, STYLE.headerFill, true);

  const firstHeight = table.rows[0] ? rowHeight(doc, table.rows[0], widths) : 0;
  ensureSpace(doc, headerHeight + firstHeight);
  drawHeader();
  for (let r = 0; r < table.rows.length; r++) {
    if (r % 25 === 24) await pause();
    const row = table.rows[r]!;
    const height = rowHeight(doc, row, widths);
    if (height > bottom - top - headerHeight) {
      throw new ToolError(`${table.field}.rows[${r}]: the row is taller than a page; split its text over several rows`);
    }
    if (doc.y + height > bottom) {
      doc.addPage();
      drawHeader();
    }
    drawRow(doc, row, height, widths, aligns, left, r % 2 === 1 ? STYLE.zebra : undefined, false);
  }
  doc.x = left;
  doc.y += STYLE.paragraphGap + 2;
}

function drawRow(doc: Doc, cells: readonly Run[][], height: number, widths: readonly number[], aligns: readonly Align[], left: number, fill: string | undefined, isHeader: boolean): void {
  const y = doc.y;
  const total = widths.reduce((a, b) => a + b, 0);
  if (fill) doc.save().rect(left, y, total, height).fill(fill).restore();
  // A right-to-left document's table starts at the right: its first column is the rightmost.
  const rtl = rightToLeft(doc);
  let x = rtl ? left + total : left;
  cells.forEach((cell, c) => {
    if (rtl) x -= widths[c]!;
    doc.y = y + PAD + OPTICAL_SHIFT;
    writeRuns(doc, cell, { x: x + PAD, width: widths[c]! - 2 * PAD, size: SIZE, align: aligns[c]!, lineGap: 1 });
    if (!rtl) x += widths[c]!;
  });
  doc
    .save()
    .moveTo(left, y + height)
    .lineTo(left + total, y + height)
    .lineWidth(isHeader ? 0.9 : 0.4)
    .strokeColor(isHeader ? STYLE.muted : STYLE.rule)
    .stroke()
    .restore();
  doc.y = y + height;
}

function rowHeight(doc: Doc, cells: readonly Run[][], widths: readonly number[]): number {
  let height = 0;
  cells.forEach((cell, c) => {
    height = Math.max(height, runsHeight(doc, cell, widths[c]! - 2 * PAD, SIZE, 1));
  });
  return height + 2 * PAD;
}

/**
 * Column widths from the content: columns whose text fits in a fair share of the width get what they
 * need; the rest share what is left in proportion to their text, each keeping at least its longest word
 * (so words break mid-way only when the table can't fit otherwise).
 */
function columnWidths(doc: Doc, table: Table, available: number): number[] {
  const sample = [table.columns.map((c) => c.header), ...table.rows.slice(0, SAMPLE_ROWS)];
  const count = table.columns.length;
  const longestWord = new Array<number>(count).fill(0);
  const longestLine = new Array<number>(count).fill(0);
  for (const row of sample) {
    row.forEach((cell, c) => {
      let lineWidth = 0;
      for (const run of cell) {
        const face = fontKeyFor(run);
        const size = run.code ? SIZE * 0.92 : SIZE;
        lineWidth += textWidth(doc, run.text, face, size);
        for (const word of run.text.split(/\s+/)) if (word) longestWord[c] = Math.max(longestWord[c]!, textWidth(doc, word, face, size));
      }
      longestLine[c] = Math.max(longestLine[c]!, lineWidth);
    });
  }
  const mins = longestWord.map((w) => Math.min(Math.max(w, 16) + 2 * PAD + 1, available / 2));
  const wants = longestLine.map((w, c) => Math.max(w + 2 * PAD + 1, mins[c]!));
  const sumWant = wants.reduce((a, b) => a + b, 0);
  // Everything fits on one line: spread the slack evenly so the table spans the text width.
  if (sumWant <= available) return wants.map((w) => w + (available - sumWant) / count);
  const widths = new Array<number>(count).fill(0);
  let open = [...Array(count).keys()];
  let remaining = available;
  for (let settled = true; settled && open.length > 0; ) {
    settled = false;
    const share = remaining / open.length;
    for (const c of open) {
      if (wants[c]! <= share) {
        widths[c] = wants[c]!;
        remaining -= wants[c]!;
        settled = true;
      }
    }
    open = open.filter((c) => widths[c] === 0);
  }
  const sumMin = open.reduce((a, c) => a + mins[c]!, 0);
  if (sumMin >= remaining) {
    for (const c of open) widths[c] = (mins[c]! / sumMin) * remaining;
    return widths;
  }
  const extra = remaining - sumMin;
  const wantMore = open.reduce((a, c) => a + wants[c]! - mins[c]!, 0);
  for (const c of open) widths[c] = mins[c]! + ((wants[c]! - mins[c]!) / wantMore) * extra;
  return widths;
}
