import type { PreparedListItem } from "../../document/prepare.js";
import { runsText } from "../../document/inline.js";
import { rightToLeft } from "../../text/doc-text.js";
import { area, drawLine, ensureSpace, STYLE } from "../page.js";
import { runsHeight, setRuns } from "../set-runs.js";
import type { Doc } from "../doc.js";
import { tagsOf } from "../tags.js";

const BULLETS = ["•", "◦", "▪", "–"];
const INDENT = 16;
const ITEM_GAP = 2;
/** Items a list carries onto its next page at least, so no page holds only a list's last item. */
const MIN_CARRIED = 2;

/** An item as it is set: its marker and where its text starts, in list order (nested items after their parent). */
interface PlacedItem {
  item: PreparedListItem;
  depth: number;
  marker: string;
  x: number;
  markerWidth: number;
}

/**
 * A bullet or numbered list (its top level numbered from `start`); nested items are set in one step
 * further, with the next marker style. Where the list breaks across pages is decided before it is drawn
 * (see {@link pageBreaks}).
 */
export function renderList(doc: Doc, items: readonly PreparedListItem[], ordered: boolean, start = 1): void {
  const placed = place(doc, items, ordered, 0, start);
  const { width, top, bottom } = area(doc);
  const heights = placed.map((p) => runsHeight(doc, p.item.runs, width - p.depth * INDENT - p.markerWidth, STYLE.body) + ITEM_GAP);
  const breaks = pageBreaks(
    heights,
    doc.y,
    top,
    bottom,
    placed.map((p) => p.depth),
  );
  const next = { index: 0 };
  tagsOf(doc).group("L", () => renderItems(doc, placed, next, breaks, 0));
  doc.y += STYLE.paragraphGap - 2;
}

/** The items of one level (and, inside each, its nested level), tagged LI > Lbl + LBody. */
function renderItems(doc: Doc, placed: readonly PlacedItem[], next: { index: number }, breaks: ReadonlySet<number>, depth: number): void {
  const tags = tagsOf(doc);
  doc.font("regular").fontSize(STYLE.body);
  const lineHeight = doc.currentLineHeight(true) + STYLE.lineGap;
  const { left, width } = area(doc);
  const rtl = rightToLeft(doc);
  while (next.index < placed.length && placed[next.index]!.depth === depth) {
    const at = next.index++;
    const { item, marker, x, markerWidth } = placed[at]!;
    if (breaks.has(at) && doc.y > area(doc).top + 0.5) doc.addPage();
    ensureSpace(doc, lineHeight);
    const y = doc.y;
    const textWidth = width - depth * INDENT - markerWidth;
    tags.open("LI");
    // In a right-to-left document the list is mirrored: the marker right of the text, both set in from the right margin.
    tags.leaf("Lbl", () =>
      rtl ? drawLine(doc, marker, "regular", left + textWidth + 5, y, { size: STYLE.body }) : drawLine(doc, marker, "regular", x + markerWidth - 5, y, { size: STYLE.body, alignRight: true }),
    );
    // The body holds the item's text and its nested list, as PDF 1.7 (14.8.4.3.3) nests lists.
    tags.open("LBody");
    const options = { x: rtl ? left : x + markerWidth, width: textWidth, size: STYLE.body, inRightToLeft: rtl };
    tags.content(() => setRuns(doc, item.runs, options));
    doc.y += ITEM_GAP;
    if (placed[next.index]?.depth === depth + 1) tags.group("L", () => renderItems(doc, placed, next, breaks, depth + 1));
    tags.close();
    tags.close();
  }
}

/** Every item in reading order with its marker and indent. */
function place(doc: Doc, items: readonly PreparedListItem[], ordered: boolean, depth: number, start = 1): PlacedItem[] {
  const { left } = area(doc);
  doc.font("regular").fontSize(STYLE.body);
  // A right-to-left list counts in its own letters (Latin ones read the other way: ".1" but "a.").
  const letters = rightToLeft(doc) ? (items.some((item) => HEBREW.test(runsText(item.runs))) ? HEBREW_LETTERS : ARABIC_LETTERS) : undefined;
  const markers = items.map((item, i) => item.marker ?? (ordered ? orderedMarker(start + i, depth, letters) : BULLETS[depth % BULLETS.length]!));
  const markerWidth = Math.max(10, ...markers.map((m) => doc.widthOfString(m))) + 5;
  const x = left + depth * INDENT;
  return items.flatMap((item, i) => [{ item, depth, marker: markers[i]!, x, markerWidth }, ...place(doc, item.items, ordered, depth + 1)]);
}

/**
 * The items before which the list starts a new page: where the next item no longer fits whole (an item
 * taller than a page is left to flow over). Then, so that a page never holds a stray end of the list
 * (issue 17 item 3): a list that would leave one item alone at the foot of a page starts on the next one;
 * when the last break would carry fewer than {@link MIN_CARRIED} items onto the list's last page, it moves
 * up; and when that page would hold only nested items (`depths`: 0 for a top-level item), their top-level
 * item goes with them.
 */
export function pageBreaks(heights: readonly number[], y0: number, top: number, bottom: number, depths?: readonly number[]): Set<number> {
  let breaks = fill(heights, y0, top, bottom);
  if (breaks.length > 0 && breaks[0]! > 0 && breaks[0]! < MIN_CARRIED && y0 > top + 0.5) breaks = [0, ...fill(heights, top, top, bottom)];
  const last = breaks.length - 1;
  if (last >= 0 && breaks[last]! > 0) {
    // Not back to where a page starts anyway (the previous break, or the list's own start at a page top).
    const earliest = last > 0 ? breaks[last - 1]! + 1 : y0 > top + 0.5 ? 0 : 1;
    let at = Math.max(earliest, Math.min(breaks[last]!, heights.length - MIN_CARRIED));
    if (depths && depths[at]! > 0 && depths.slice(at).every((d) => d > 0)) {
      // Only when the item and its nested ones fit a page, and the page before keeps two items (or the
      // whole list, started lower on a page, moves on).
      const parent = depths.lastIndexOf(0, at);
      const before = last > 0 ? breaks[last - 1]! : 0;
      const fits = heights.slice(parent).reduce((a, b) => a + b, 0) <= bottom - top;
      if (parent >= earliest && fits && (parent - before >= MIN_CARRIED || (parent === 0 && y0 > top + 0.5))) at = parent;
    }
    breaks[last] = at;
  }
  return new Set(breaks);
}

/** Breaks before each item that no longer fits whole below `y` (none at a page's top). */
function fill(heights: readonly number[], y: number, top: number, bottom: number): number[] {
  const breaks: number[] = [];
  heights.forEach((h, i) => {
    if (y + h > bottom && y > top + 0.5 && h <= bottom - top) {
      breaks.push(i);
      y = top;
    }
    y += h;
  });
  return breaks;
}

const HEBREW = /[\u05D0-\u05EA]/;
// The letters Arabic and Hebrew lists count with: Arabic in its abjad order (أ ب ج د), Hebrew in its own.
const ARABIC_LETTERS = [..."أبجدهوزحطيكلمنسعفصقرشتثخذضظغ"];
const HEBREW_LETTERS = [..."אבגדהוזחטיכלמנסעפצקרשת"];

/**
 * 1. / a. / i. by depth, as outlines are usually numbered; in a right-to-left list (given its `letters`)
 * 1. / أ. (or א.) / 1., a number past the letters as a number.
 */
function orderedMarker(n: number, depth: number, letters?: readonly string[]): string {
  if (letters) return depth % 3 === 1 && n <= letters.length ? `${letters[n - 1]}.` : `${n}.`;
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
