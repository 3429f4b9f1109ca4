import { formatBytes, ToolError } from "@selu-catalogue/kit";
import { EncryptedPDFError, PDFDocument } from "pdf-lib";
import { PDF_LIMITS } from "../limits.js";
import { parsePageRanges } from "./page-ranges.js";
import { encryptedError, type PdfInput } from "./pdf-input.js";

export interface MergeInput extends PdfInput {
  /** Page ranges to take ("1-3,7"); all pages when absent. */
  pages: string | undefined;
}

/**
 * Concatenates the chosen pages of each PDF into a new one with pdf-lib. Encrypted inputs are refused
 * (pdf-lib can't decrypt, and copying their pages would produce unreadable output); page counts and
 * the output size are bounded.
 */
export async function mergePdfs(inputs: readonly MergeInput[], title: string | undefined, maxBytes: number, signal: AbortSignal): Promise<{ bytes: Uint8Array; pages: number }> {
  const merged = await PDFDocument.create();
  let total = 0;
  for (const input of inputs) {
    signal.throwIfAborted();
    let source: PDFDocument;
    try {
      source = await PDFDocument.load(input.bytes, { updateMetadata: false, throwOnInvalidObject: false });
    } catch (err) {
      if (err instanceof EncryptedPDFError) throw encryptedError(input, "merged");
      throw new ToolError(`${input.field} (${input.filename}): the PDF is damaged and can't be read (${err instanceof Error ? err.message : String(err)})`, { cause: err });
    }
    const count = source.getPageCount();
    const indexes = input.pages ? parsePageRanges(input.pages, count, `${input.field}.pages`) : [...Array(count).keys()];
    total += indexes.length;
    if (total > PDF_LIMITS.maxMergePages) {
      throw new ToolError(`the merged PDF would have more than ${PDF_LIMITS.maxMergePages} pages; merge fewer pages`);
    }
    for (const page of await merged.copyPages(source, indexes)) merged.addPage(page);
    // pdf-lib works synchronously on each file: give other calls and cancellation a turn in between.
    await new Promise((resolve) => setImmediate(resolve));
  }
  signal.throwIfAborted();
  if (title) merged.setTitle(title);
  merged.setProducer("pdf-lib");
  merged.setCreator("Selu pdf capability");
  const bytes = await merged.save({ useObjectStreams: true });
  if (bytes.byteLength > maxBytes) {
    throw new ToolError(`the merged PDF is ${formatBytes(bytes.byteLength)}, over the ${formatBytes(maxBytes)} limit for a file; merge fewer pages`);
  }
  return { bytes, pages: total };
}
