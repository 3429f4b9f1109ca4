import { defineCapability } from "@selu-catalogue/kit";
import { createPdfDocument } from "./tools/create-document.js";
import { extractPdfText, mergePdfsTool } from "./tools/read-tools.js";

/** The pdf capability: create documents people would send, read their text, merge them. */
export default defineCapability({
  id: "pdf",
  tools: {
    create_pdf_document: createPdfDocument,
    extract_pdf_text: extractPdfText,
    merge_pdfs: mergePdfsTool,
  },
});
