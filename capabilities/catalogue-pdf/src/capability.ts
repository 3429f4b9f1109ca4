import { defineCapability } from "@selu-catalogue/kit";
import { missingGlyphs } from "./document/glyph-coverage.js";
import { PDF_LIMITS } from "./limits.js";
import { fonts } from "./render/fonts.js";
import { createPdfDocument } from "./tools/create-document.js";
import { extractPdfText, mergePdfsTool } from "./tools/read-tools.js";

/** The pdf capability: create documents people would send, read their text, merge them. */
export default defineCapability({
  id: "catalogue-pdf",
  limits: { calls: { max: PDF_LIMITS.maxConcurrent, maxWaiting: PDF_LIMITS.maxConcurrent }, workSlots: PDF_LIMITS.workSlots },
  tools: {
    create_pdf_document: createPdfDocument,
    extract_pdf_text: extractPdfText,
    merge_pdfs: mergePdfsTool,
  },
  // Ready only once the fonts load and cover what we promise: an image built without them fails here,
  // at start-up, rather than on the first document.
  ready() {
    for (const [face, font] of Object.entries(fonts())) {
      if (missingGlyphs("Aäß Ωω Жж €", font).length > 0) throw new Error(`the ${face} font lacks Latin, Greek or Cyrillic glyphs`);
    }
  },
});
