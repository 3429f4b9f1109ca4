import type { PreparedDocument } from "../document/prepare.js";
import type { Labels } from "./labels.js";
import { area, drawLine, STYLE, textWidth } from "./page.js";
import type { Doc } from "./doc.js";
import { markArtifact } from "./marked-content.js";

/** Header (from page 2), footer text and "Page n of N" on every page, drawn in the margins. */
export function writePageFurniture(doc: Doc, prepared: PreparedDocument, pageNumbers: boolean, labels: Labels): void {
  const range = doc.bufferedPageRange();
  // Broken once per width left for it (page numbers differ in width), not once per page.
  const broken = new Map<string, string[]>();
  const linesOf = (text: string, maxWidth: number) => {
    const key = `${maxWidth}\n${text}`;
    let lines = broken.get(key);
    if (!lines) broken.set(key, (lines = twoLines(doc, text, maxWidth)));
    return lines;
  };
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Page furniture is not read aloud (an artifact of pagination).
    markArtifact(doc, "Pagination");
    const { left, width } = area(doc);
    const margins = doc.page.margins;
    // Writing into the margins would otherwise make pdfkit start a new page.
    doc.page.margins = { ...margins, top: 0, bottom: 0 };
    const style = { size: STYLE.small, color: STYLE.muted };
    const lineHeight = doc.font("regular").fontSize(STYLE.small).currentLineHeight(true);
    const footerY = doc.page.height - margins.bottom + 22;
    const numberWidth = pageNumbers ? drawLine(doc, labels.page(i + 1, range.count), "regular", left + width, footerY, { ...style, alignRight: true }) : 0;
    if (prepared.footer) {
      const lines = linesOf(prepared.footer, width - numberWidth - 16);
      lines.forEach((line, n) => drawLine(doc, line, "regular", left, footerY + n * lineHeight, { ...style, maxWidth: width - numberWidth - 16 }));
    }
    if (prepared.header && i > range.start) {
      const headerY = margins.top - 30;
      // A second line goes above the first, so the rule stays under the header.
      const lines = linesOf(prepared.header, width);
      lines.forEach((line, n) => drawLine(doc, line, "regular", left, headerY - (lines.length - 1 - n) * lineHeight, { ...style, maxWidth: width }));
      doc
        .save()
        .moveTo(left, headerY + lineHeight + 3)
        .lineTo(left + width, headerY + lineHeight + 3)
        .lineWidth(0.5)
        .strokeColor(STYLE.rule)
        .stroke()
        .restore();
    }
    doc.page.margins = margins;
    doc.endMarkedContent();
  }
  doc.fillColor(STYLE.text);
}

/**
 * A header or footer as one line, or two when it is wider than `maxWidth`, broken at the last space that
 * fits (a 200-character footer was cut short with "…" at about 110); drawLine cuts what still does not fit.
 */
function twoLines(doc: Doc, text: string, maxWidth: number): string[] {
  const width = (line: string) => textWidth(doc, line, "regular", STYLE.small);
  if (width(text) <= maxWidth) return [text];
  let cut = -1;
  for (let at = text.indexOf(" "); at > 0 && width(text.slice(0, at)) <= maxWidth; at = text.indexOf(" ", at + 1)) cut = at;
  return cut > 0 ? [text.slice(0, cut), text.slice(cut + 1).trimStart()] : [text];
}
