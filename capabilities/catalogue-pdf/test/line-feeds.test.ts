import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import { parseInline } from "../src/document/inline.js";
import type { Doc } from "../src/render/doc.js";
import { registerFaces } from "../src/render/fonts.js";
import { boundLayoutCaches } from "../src/render/layout-cache.js";
import { writeRuns } from "../src/render/page.js";
import { leanObjects } from "../src/render/pdf-objects.js";
import { setRuns } from "../src/render/set-runs.js";
import { attachText } from "../src/text/doc-text.js";
import { pagePng } from "./support/poppler.js";

// Text with line feeds is set by our line breaking (src/render/line-break.ts), no longer by pdfkit's
// wrapper: each paragraph drawn both ways, on two pages of one document, must give the same pixels.
const paragraphs = [
  "Mit freundlichen Grüßen\nJürgen Müller",
  "Frau Anna Schäfer\nBahnhofstraße 12\n\n8001 Zürich\n",
  "Ein langer Satz, der über mehr als eine Zeile laufen muss, weil er so lang ist, und dann nach einem Umbruch\nweitergeht mit **fett** und *kursiv*\nund endet.",
];

async function pages(draw: (doc: Doc, text: string) => void): Promise<Buffer> {
  const doc: Doc = new PDFDocument({ font: null as unknown as string, size: "A4", margins: { top: 64, bottom: 64, left: 56, right: 56 } });
  leanObjects(doc);
  registerFaces(doc);
  boundLayoutCaches(doc);
  attachText(doc, "de");
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => doc.on("end", resolve));
  for (const text of paragraphs) {
    doc.y = 80;
    draw(doc, text);
    doc.addPage();
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

describe("text with line feeds", () => {
  it("is set as pdfkit's wrapper set it, pixel for pixel", async () => {
    const options = { x: 56, width: 300, size: 10.5 };
    const ours = await pages((doc, text) => setRuns(doc, parseInline(text), options));
    const wrapper = await pages((doc, text) => writeRuns(doc, parseInline(text), options));
    for (let page = 1; page <= paragraphs.length; page++) {
      const png = pagePng(ours, page, 100);
      expect(png.equals(pagePng(wrapper, page, 100)), `paragraph ${page}`).toBe(true);
      // Something was drawn: a blank page would pass too.
      expect(png.equals(pagePng(ours, paragraphs.length + 1, 100)), `paragraph ${page} drawn`).toBe(false);
    }
  });
});
