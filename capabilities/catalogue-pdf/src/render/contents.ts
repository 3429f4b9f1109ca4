import type { PreparedDocument } from "../document/prepare.js";
import type { Labels } from "./labels.js";
import { area, currentPage, drawLine, ensureSpace, runOf, STYLE, textWidth, writeRuns } from "./page.js";
import type { Doc } from "./doc.js";
import { type StructElement, tagsOf } from "./tags.js";
import { rightToLeft } from "../text/doc-text.js";

// The table of contents is written in two steps: its lines are reserved before the sections are rendered
// (their number is known), and filled once the page of each section is known.

export interface ContentsSlot {
  page: number;
  y: number;
}

/** The reserved lines and the contents' structure element (TOC), whose entries are added when filled. */
export interface Contents {
  /** By section: none for a section without a heading. */
  slots: (ContentsSlot | undefined)[];
  element?: StructElement;
}

const TOC_LINE = 17;

/**
 * Leaves room for the table of contents (one line per section with a heading) and remembers where each
 * line goes; none when no section has a heading.
 */
export function reserveContents(doc: Doc, prepared: PreparedDocument, labels: Labels): Contents {
  if (prepared.sections.every((section) => section.heading === undefined)) return { slots: [] };
  const { left, width } = area(doc);
  const tags = tagsOf(doc);
  tags.leaf("H2", () => writeRuns(doc, [runOf(labels.contents, "bold")], { x: left, width, size: STYLE.subtitle }));
  const element = tags.reserve("TOC");
  doc.y += 6;
  const slots = prepared.sections.map((section) => {
    if (section.heading === undefined) return undefined;
    ensureSpace(doc, TOC_LINE);
    const slot = { page: currentPage(doc), y: doc.y };
    doc.y += TOC_LINE;
    return slot;
  });
  doc.addPage();
  return { slots, element };
}

/** Writes each section's heading and page number into the reserved lines, linked to the section. */
export function fillContents(doc: Doc, prepared: PreparedDocument, { slots, element }: Contents, pageOf: readonly number[]): void {
  if (!element) return;
  const tags = tagsOf(doc);
  tags.fillReserved(element, "TOC", () => {
    slots.forEach((slot, s) => {
      if (!slot) return;
      // On its page before its content is marked: a marking belongs to the page it starts on.
      doc.switchToPage(slot.page);
      // Read as "Results 3" (the heading whole, even where the line shortens it), not "Results3".
      tags.leaf("TOCI", () => fillLine(doc, prepared, slot, s, pageOf), { actualText: `${prepared.sections[s]!.heading} ${pageOf[s]! + 1}` });
    });
  });
}

/** One contents line: the heading, dot leaders and the page number, all linked to the section. */
function fillLine(doc: Doc, prepared: PreparedDocument, slot: ContentsSlot, s: number, pageOf: readonly number[]): void {
  const { left, width } = area(doc);
  // The heading and its page number: one Link element, described by the whole heading (the line may shorten it).
  const goTo = { name: destination(s), id: s, description: prepared.sections[s]!.heading! };
  const page = String(pageOf[s]! + 1);
  const heading = prepared.sections[s]!.heading!;
  // A right-to-left document's contents are mirrored: the heading at the right margin, its page at the left.
  const rtl = rightToLeft(doc);
  // The heading drawn first: copied out, the entry reads "Results 3", not "3 Results".
  const numberWidth = textWidth(doc, page, "regular", STYLE.body);
  const headingWidth = drawLine(doc, heading, "regular", rtl ? left + width : left, slot.y, { size: STYLE.body, maxWidth: width - numberWidth - 24, alignRight: rtl, goTo });
  drawLine(doc, page, "regular", rtl ? left : left + width, slot.y, { size: STYLE.body, alignRight: !rtl, goTo });
  const dotsY = slot.y + doc.currentLineHeight(true) * 0.72;
  const [from, to] = rtl ? [left + numberWidth + 6, left + width - headingWidth - 6] : [left + headingWidth + 6, left + width - numberWidth - 6];
  doc.save().moveTo(from, dotsY).lineTo(to, dotsY).lineWidth(0.6).dash(0.6, { space: 2.4 }).strokeColor(STYLE.muted).stroke().undash().restore();
}

/** The named destination of section `s`, the target of its contents line. */
export const destination = (s: number) => `section-${s + 1}`;
