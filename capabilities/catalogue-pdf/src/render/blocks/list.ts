import type { PreparedListItem } from "../../document/prepare.js";
import { rightToLeft } from "../../text/doc-text.js";
import { area, drawLine, ensureSpace, STYLE, writeRuns, type Doc } from "../page.js";

const BULLETS = ["•", "◦", "▪", "–"];
const INDENT = 16;

/** A bullet or numbered list; nested items are set in one step further, with the next marker style. */
export function renderList(doc: Doc, items: readonly PreparedListItem[], ordered: boolean): void {
  renderItems(doc, items, ordered, 0);
  doc.y += STYLE.paragraphGap - 2;
}

function renderItems(doc: Doc, items: readonly PreparedListItem[], ordered: boolean, depth: number): void {
  const { left, width } = area(doc);
  doc.font("regular").fontSize(STYLE.body);
  const markers = items.map((_, i) => (ordered ? orderedMarker(i + 1, depth) : BULLETS[depth % BULLETS.length]!));
  const markerWidth = Math.max(10, ...markers.map((m) => doc.widthOfString(m))) + 5;
  const x = left + depth * INDENT;
  const rtl = rightToLeft(doc);
  const lineHeight = doc.currentLineHeight(true) + STYLE.lineGap;
  items.forEach((item, i) => {
    ensureSpace(doc, lineHeight);
    const y = doc.y;
    const textWidth = width - depth * INDENT - markerWidth;
    if (rtl) {
      // Mirrored: the marker right of the text, both set in from the right margin.
      drawLine(doc, markers[i]!, "regular", left + textWidth + 5, y, { size: STYLE.body });
      writeRuns(doc, item.runs, { x: left, width: textWidth, size: STYLE.body });
    } else {
      drawLine(doc, markers[i]!, "regular", x + markerWidth - 5, y, { size: STYLE.body, alignRight: true });
      writeRuns(doc, item.runs, { x: x + markerWidth, width: textWidth, size: STYLE.body });
    }
    doc.y += 2;
    if (item.items.length > 0) renderItems(doc, item.items, ordered, depth + 1);
  });
}

/** 1. / a. / i. by depth, as outlines are usually numbered. */
function orderedMarker(n: number, depth: number): string {
  switch (depth % 3) {
    case 1:
      return `${alphabetic(n)}.`;
    case 2:
      return `${roman(n)}.`;
    default:
      return `${n}.`;
  }
}

function alphabetic(n: number): string {
  let out = "";
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) out = String.fromCharCode(97 + ((k - 1) % 26)) + out;
  return out;
}

function roman(n: number): string {
  const table: [number, string][] = [
    [1000, "m"],
    [900, "cm"],
    [500, "d"],
    [400, "cd"],
    [100, "c"],
    [90, "xc"],
    [50, "l"],
    [40, "xl"],
    [10, "x"],
    [9, "ix"],
    [5, "v"],
    [4, "iv"],
    [1, "i"],
  ];
  let out = "";
  let k = n;
  for (const [value, digits] of table) for (; k >= value; k -= value) out += digits;
  return out;
}
