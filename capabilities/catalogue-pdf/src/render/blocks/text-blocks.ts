import { type Run, runsText } from "../../document/inline.js";
import { rightToLeft } from "../../text/doc-text.js";
import { area, currentPage, ensureSpace, ownLayoutHeight, runOf, type RunsOptions, STYLE, writeRuns } from "../page.js";
import { needsOwnLayout } from "../../text/bidi-paragraph.js";
import { runsHeight, setRuns } from "../set-runs.js";
import type { Doc } from "../doc.js";
import { inReadingOrder } from "../struct-element.js";
import { tagsOf } from "../tags.js";
import { PIECE_CHARS, pieces } from "./pieces.js";

/** A paragraph: flowing runs over the text width, breaking across pages as needed; long text in pieces. */
export async function renderParagraph(doc: Doc, runs: readonly Run[], pause: () => Promise<void>, heading?: { keep: (height: number) => number }): Promise<void> {
  const { left, width } = area(doc);
  const lines = doc.font("regular").fontSize(STYLE.body).currentLineHeight(true) * 2;
  // A heading (a `#` line in the text) stays on the page of the start of what follows it.
  const height = heading ? runsHeight(doc, runs, width, STYLE.body) + STYLE.paragraphGap : 0;
  ensureSpace(doc, heading ? height + heading.keep(height) : lines);
  const tags = tagsOf(doc);
  // Tagged a level under the section's H2.
  tags.open(heading ? "H3" : "P", inReadingOrder(runsText(runs)));
  const options = { x: left, width, size: STYLE.body };
  await inPieces(doc, runs, pause, (piece, joined) => (joined ? writeRuns(doc, piece, { ...options, ...joined }) : setRuns(doc, piece, options)));
  tags.close();
  doc.y += STYLE.paragraphGap;
}

/**
 * Draws runs as content of the open element, in {@link pieces}, giving the event loop a turn between them.
 * A piece cut at a space is drawn on with pdfkit's wrapper from where the last one stopped (`joined`),
 * unless the text is laid out here (right to left, several fonts), where its line then breaks early.
 */
async function inPieces(doc: Doc, runs: readonly Run[], pause: () => Promise<void>, draw: (piece: readonly Run[], joined?: Joined) => void): Promise<void> {
  const all = pieces(runs);
  const joins = all.length > 1 && !needsOwnLayout(doc, runs);
  for (let i = 0; i < all.length; i++) {
    if (i > 0) await pause();
    const continuing = i > 0 && all[i - 1]!.continues;
    const joined = joins && (continuing || all[i]!.continues) ? { continues: all[i]!.continues, continuing } : undefined;
    tagsOf(doc).content(() => draw(all[i]!.runs, joined));
  }
}

/** How a piece joins its neighbours' lines (see RunsOptions). */
type Joined = Pick<RunsOptions, "continues" | "continuing">;

/** A horizontal rule (markdown's `---`): a thin line across the text, a decoration screen readers skip. */
export function renderRule(doc: Doc): void {
  const { left, width } = area(doc);
  // With room for a line of text under it: a rule does not end a page.
  ensureSpace(doc, RULE_ABOVE + STYLE.paragraphGap + doc.font("regular").fontSize(STYLE.body).currentLineHeight(true));
  // As far from the text under it as from the text above (whose paragraph gap is already there).
  const y = doc.y + RULE_ABOVE;
  tagsOf(doc).artifact(() =>
    doc
      .save()
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.8)
      .strokeColor(STYLE.rule)
      .stroke()
      .restore(),
  );
  doc.y = y + RULE_ABOVE + STYLE.paragraphGap;
}

/** The space between a rule and the gap the paragraph above it leaves. */
const RULE_ABOVE = 6;

const QUOTE_INDENT = 16;

/** The height of a quote's text (kept on one page when it fits one), or infinity for one longer than a page. */
export function quoteHeight(doc: Doc, runs: readonly Run[]): number {
  // Text longer than a piece is longer than a page: not measured.
  const long = runs.reduce((n, r) => n + r.text.length, 0) > PIECE_CHARS;
  return long ? Number.POSITIVE_INFINITY : runsHeight(doc, runs, area(doc).width - QUOTE_INDENT, STYLE.body);
}

/** A block quote: italic text set in from a bar on the left, with an optional attribution. */
export async function renderQuote(doc: Doc, runs: readonly Run[], attribution: string | undefined, pause: () => Promise<void>): Promise<void> {
  const { left, width, top, bottom } = area(doc);
  const textWidth = width - QUOTE_INDENT;
  // Keep a quote on one page when it fits on one; a longer one flows (without its bar).
  const height = quoteHeight(doc, runs);
  if (height <= bottom - top) ensureSpace(doc, height);
  const startY = doc.y;
  const startPage = currentPage(doc);
  // In a right-to-left document the bar stands on the right.
  const rtl = rightToLeft(doc);
  const textX = rtl ? left : left + QUOTE_INDENT;
  const tags = tagsOf(doc);
  tags.open("BlockQuote");
  await inPieces(doc, runs, pause, (piece, joined) => writeRuns(doc, piece, { x: textX, width: textWidth, size: STYLE.body, color: STYLE.muted, ...joined }));
  if (currentPage(doc) === startPage) {
    tags.artifact(() =>
      doc
        .save()
        .rect(rtl ? left + width - 4.5 : left + 2, startY, 2.5, doc.y - startY)
        .fill(STYLE.rule)
        .restore(),
    );
  }
  if (attribution) {
    doc.y += 2;
    tags.leaf("P", () => writeRuns(doc, [runOf(`— ${attribution}`, "regular")], { x: textX, width: textWidth, size: STYLE.small, color: STYLE.muted }));
  }
  tags.close();
  doc.y += STYLE.paragraphGap;
}

const CODE_PAD = 6;

/** A code block: monospaced lines on a tinted box, split across pages between lines, a turn of the event loop between pages. */
export async function renderCode(doc: Doc, text: string, language: string | undefined, pause: () => Promise<void>): Promise<void> {
  const { left, width } = area(doc);
  const inner = width - 2 * CODE_PAD;
  // Monospace: every character is as wide as "M", so lines are cut here at the last column that fits.
  // pdfkit would otherwise break a long unspaced line (minified code, base64) by measuring ever shorter
  // prefixes, caching each one: slow, and hundreds of MB for a long block.
  doc.font("mono").fontSize(STYLE.code);
  const columns = Math.max(1, Math.floor(inner / doc.widthOfString("M")));
  const lineHeight = doc.currentLineHeight(true) + 1;
  const lines = text.split("\n").flatMap((line) => cutAt(line, columns));
  const options: RunsOptions = { x: left + CODE_PAD, width: inner + 1, size: STYLE.code, codeSize: STYLE.code, codeColor: STYLE.text, lineGap: 1 };
  // A line in another script is set in its own font, taller than the monospaced one and, for Chinese or
  // Japanese, twice as wide (so it may wrap): each such line is measured, and the box is as tall as its lines.
  const heights = lines.map((line) => ownLayoutHeight(doc, [runOf(line || " ", "mono")], options) ?? lineHeight);
  const tags = tagsOf(doc);
  if (language) {
    ensureSpace(doc, 12 + heights[0]! + 2 * CODE_PAD);
    tags.leaf("P", () => writeRuns(doc, [runOf(language, "regular")], { x: left, width, size: STYLE.small, color: STYLE.muted }));
    doc.y += 1;
  }
  tags.open("Code");
  for (let i = 0; i < lines.length; ) {
    if (i > 0) await pause();
    ensureSpace(doc, heights[i]! + 2 * CODE_PAD);
    const room = area(doc).bottom - doc.y - 2 * CODE_PAD;
    let end = i + 1;
    let linesHeight = heights[i]!;
    while (end < lines.length && linesHeight + heights[end]! <= room) linesHeight += heights[end++]!;
    const chunk = lines.slice(i, end);
    const boxTop = doc.y;
    const boxHeight = linesHeight + 2 * CODE_PAD;
    tags.artifact(() => doc.save().rect(left, boxTop, width, boxHeight).fill(STYLE.fill).restore());
    doc.y = boxTop + CODE_PAD;
    tags.content(() => writeRuns(doc, [runOf(chunk.map((l) => l || " ").join("\n"), "mono")], options));
    doc.y = boxTop + boxHeight;
    i = end;
  }
  tags.close();
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
