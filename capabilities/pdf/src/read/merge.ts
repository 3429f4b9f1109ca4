import { formatBytes, ToolError } from "@selu-catalogue/kit";
import type { PDFDocument } from "pdf-lib";
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
  // Loaded on the first merge only: a process that only creates PDFs never holds it.
  const { PDFDocument } = await import("pdf-lib");
  const merged = await PDFDocument.create();
  let total = 0;
  for (const input of inputs) {
    signal.throwIfAborted();
    const source = await readPdf(PDFDocument, input);
    const count = damagedIfThrows(input, () => source.getPageCount());
    const tooMany = () => new ToolError(`the merged PDF would have more than ${PDF_LIMITS.maxMergePages} pages; merge fewer pages`);
    const room = PDF_LIMITS.maxMergePages - total;
    const indexes = input.pages ? parsePageRanges(input.pages, count, `${input.field}.pages`, room, tooMany) : [...Array(count).keys()];
    total += indexes.length;
    if (total > PDF_LIMITS.maxMergePages) throw tooMany();
    const copied = await merged.copyPages(source, indexes).catch((err: unknown) => damagedIfThrows(input, () => { throw err; }));
    for (const page of copied) merged.addPage(page);
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

async function readPdf(pdfLib: typeof PDFDocument, input: MergeInput): Promise<PDFDocument> {
  // Loaded even when encrypted, so that encryption is reported as such rather than as damage.
  const source = await pdfLib.load(input.bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false }).catch((err: unknown) =>
    damagedIfThrows(input, () => {
      throw err;
    }),
  );
  if (source.isEncrypted) throw encryptedError(input, "merged");
  return source;
}

/** Runs a pdf-lib step; a failure means the file's structure is broken, which the user should hear. */
function damagedIfThrows<T>(input: PdfInput, step: () => T): T {
  try {
    return step();
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw new ToolError(`${input.field} (${input.filename}): the PDF is damaged and can't be read (${err instanceof Error ? err.message : String(err)})`, { cause: err });
  }
}
