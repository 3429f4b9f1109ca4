import type { PreparedDocument } from "../document/prepare.js";
import type { Labels } from "./labels.js";
import { area, drawLine, STYLE } from "./page.js";
import type { Doc } from "./doc.js";
import { markArtifact } from "./marked-content.js";

/** Header (from page 2), footer text and "Page n of N" on every page, drawn in the margins. */
export function writePageFurniture(doc: Doc, prepared: PreparedDocument, pageNumbers: boolean, labels: Labels): void {
  const range = doc.bufferedPageRange();
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
    if (prepared.footer) drawLine(doc, prepared.footer, "regular", left, footerY, { ...style, maxWidth: width - numberWidth - 16 });
    if (prepared.header && i > range.start) {
      const headerY = margins.top - 30;
      drawLine(doc, prepared.header, "regular", left, headerY, { ...style, maxWidth: width });
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
