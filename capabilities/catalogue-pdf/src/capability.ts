import { defineCapability } from "@selu-catalogue/kit";
import { PDF_LIMITS } from "./limits.js";
import { warmUp } from "./render/warm-up.js";
import { createPdfDocument } from "./tools/create-document.js";
import { extractPdfText, mergePdfsTool } from "./tools/read-tools.js";

/** The pdf capability: create documents people would send, read their text, merge them. */
export default defineCapability({
  id: "catalogue-pdf",
  limits: { calls: { max: PDF_LIMITS.maxConcurrent, maxWaiting: PDF_LIMITS.maxConcurrent }, workSlots: PDF_LIMITS.workSlots, artifactBudgetBytes: PDF_LIMITS.artifactBudgetBytes },
  tools: {
    create_pdf_document: createPdfDocument,
    extract_pdf_text: extractPdfText,
    merge_pdfs: mergePdfsTool,
  },
  // Ready only once a sample document renders: an image built without the fonts fails here, at start-up,
  // and the first user's document finds everything loaded and compiled (see warm-up.ts).
  ready: () => warmUp(createPdfDocument.input),
});
