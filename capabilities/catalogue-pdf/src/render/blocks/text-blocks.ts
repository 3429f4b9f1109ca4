import type { Run } from "../../document/inline.js";
import { rightToLeft } from "../../text/doc-text.js";
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
  // In a right-to-left document the bar stands on the right.
  const rtl = rightToLeft(doc);
  const textX = rtl ? left : left + QUOTE_INDENT;
  writeRuns(doc, runs, { x: textX, width: textWidth, size: STYLE.body, color: STYLE.muted });
  if (currentPage(doc) === startPage) {
    doc
      .save()
      .rect(rtl ? left + width - 4.5 : left + 2, startY, 2.5, doc.y - startY)
      .fill(STYLE.rule)
      .restore();
  }
  if (attribution) {
    doc.y += 2;
    writeRuns(doc, [runOf(`— ${attribution}`, "regular")], { x: textX, width: textWidth, size: STYLE.small, color: STYLE.muted });
  }
  doc.y += STYLE.paragraphGap;
}

const CODE_PAD = 6;

/** A code block: monospaced lines on a tinted box, split across pages between lines. */
export function renderCode(doc: Doc, text: string, language: string | undefined): void {
  const { left, width } = area(doc);
  const inner = width - 2 * CODE_PAD;
  // Monospace: every character is as wide as "M", so lines are cut here at the last column that fits.
  // pdfkit would otherwise break a long unspaced line (minified code, base64) by measuring ever shorter
  // prefixes, caching each one: slow, and hundreds of MB for a long block.
  doc.font("mono").fontSize(STYLE.code);
  const columns = Math.max(1, Math.floor(inner / doc.widthOfString("M")));
  const lineHeight = doc.currentLineHeight(true) + 1;
  const lines = text.split("\n").flatMap((line) => cutAt(line, columns));
  if (language) {
    ensureSpace(doc, 12 + lineHeight + 2 * CODE_PAD);
    writeRuns(doc, [runOf(language, "regular")], { x: left, width, size: STYLE.small, color: STYLE.muted });
    doc.y += 1;
  }
  for (let i = 0; i < lines.length; ) {
    ensureSpace(doc, lineHeight + 2 * CODE_PAD);
    const fit = Math.max(1, Math.floor((area(doc).bottom - doc.y - 2 * CODE_PAD) / lineHeight));
    const chunk = lines.slice(i, i + fit);
    const boxTop = doc.y;
    const boxHeight = chunk.length * lineHeight + 2 * CODE_PAD;
    doc.save().rect(left, boxTop, width, boxHeight).fill(STYLE.fill).restore();
    doc.y = boxTop + CODE_PAD;
    writeRuns(doc, [runOf(chunk.map((l) => l || " ").join("\n"), "mono")], { x: left + CODE_PAD, width: inner + 1, size: STYLE.code, codeSize: STYLE.code, codeColor: STYLE.text, lineGap: 1 });
    doc.y = boxTop + boxHeight;
    i += chunk.length;
  }
  doc.y += STYLE.paragraphGap;
}

/** A line cut into pieces of at most `columns` characters (code points, so no pair is split). */
function cutAt(line: string, columns: number): string[] {
  const chars = Array.from(line);
  if (chars.length <= columns) return [line];
  const pieces: string[] = [];
  for (let at = 0; at < chars.length; at += columns) pieces.push(chars.slice(at, at + columns).join(""));
  return pieces;
}
