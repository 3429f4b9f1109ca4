import type { Run } from "../../document/inline.js";
import { area, currentPage, ensureSpace, runOf, runsHeight, STYLE, writeRuns, type Doc } from "../page.js";

/** A paragraph: flowing runs over the text width, breaking across pages as needed. */
export function renderParagraph(doc: Doc, runs: readonly Run[]): void {
  const { left, width } = area(doc);
  ensureSpace(doc, doc.font("regular").fontSize(STYLE.body).currentLineHeight(true) * 2);
  writeRuns(doc, runs, { x: left, width, size: STYLE.body });
  doc.y += STYLE.paragraphGap;
}

const QUOTE_INDENT = 16;

/** A block quote: italic text set in from a bar on the left, with an optional attribution. */
export function renderQuote(doc: Doc, runs: readonly Run[], attribution: string | undefined): void {
  const { left, width, top, bottom } = area(doc);
  const textWidth = width - QUOTE_INDENT;
  const height = runsHeight(doc, runs, textWidth, STYLE.body);
  // Keep a quote on one page when it fits on one; a longer one flows (without its bar).
  if (height <= bottom - top) ensureSpace(doc, height);
  const startY = doc.y;
  const startPage = currentPage(doc);
  writeRuns(doc, runs, { x: left + QUOTE_INDENT, width: textWidth, size: STYLE.body, color: STYLE.muted });
  if (currentPage(doc) === startPage) {
    doc.save().rect(left + 2, startY, 2.5, doc.y - startY).fill(STYLE.rule).restore();
  }
  if (attribution) {
    doc.y += 2;
    writeRuns(doc, [runOf(`— ${attribution}`, "regular")], { x: left + QUOTE_INDENT, width: textWidth, size: STYLE.small, color: STYLE.muted });
  }
  doc.y += STYLE.paragraphGap;
}

const CODE_PAD = 6;

/** A code block: monospaced lines on a tinted box, split across pages between lines. */
export function renderCode(doc: Doc, text: string, language: string | undefined): void {
  const { left, width } = area(doc);
  const inner = width - 2 * CODE_PAD;
  doc.font("mono").fontSize(STYLE.code);
  const lineHeight = (line: string) => doc.heightOfString(line || " ", { width: inner, lineGap: 1 });
  const lines = text.split("\n").map((line) => ({ line, height: lineHeight(line) }));
  if (language) {
    ensureSpace(doc, 12 + lines[0]!.height + 2 * CODE_PAD);
    writeRuns(doc, [runOf(language, "regular")], { x: left, width, size: STYLE.small, color: STYLE.muted });
    doc.y += 1;
  }
  let i = 0;
  while (i < lines.length) {
    ensureSpace(doc, lines[i]!.height + 2 * CODE_PAD);
    const { bottom } = area(doc);
    let chunkHeight = 0;
    let end = i;
    while (end < lines.length && doc.y + 2 * CODE_PAD + chunkHeight + lines[end]!.height <= bottom) chunkHeight += lines[end++]!.height;
    if (end === i) chunkHeight += lines[end++]!.height; // one line taller than a page: let it flow
    const boxTop = doc.y;
    doc.save().rect(left, boxTop, width, chunkHeight + 2 * CODE_PAD).fill(STYLE.fill).restore();
    doc.y = boxTop + CODE_PAD;
    const chunk = lines.slice(i, end).map((l) => l.line || " ").join("\n");
    writeRuns(doc, [runOf(chunk, "mono")], { x: left + CODE_PAD, width: inner, size: STYLE.code, codeSize: STYLE.code, codeColor: STYLE.text, lineGap: 1 });
    doc.y = boxTop + chunkHeight + 2 * CODE_PAD;
    i = end;
  }
  doc.y += STYLE.paragraphGap;
}
