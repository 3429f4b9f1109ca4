import { cutToJsonBytes, errorMessage, sliceWhole, installStandIns, itemsWithin, jsonBytes, ToolError, type ToolResult } from "@selu-catalogue/kit";
import { PDF_LIMITS } from "../limits.js";
import { parsePageRanges } from "./page-ranges.js";
import { checkPdf } from "./checked-pdf.js";
import { pagesLeftOut } from "./page-tree.js";
import { tooManyPages } from "./merge.js";
import { encryptedError, type PdfInput } from "./pdf-input.js";
import { damagedError } from "./damaged.js";

export interface ExtractedPage {
  /** Index of the file in `attachments`. */
  file: number;
  /** Page number from 1. */
  page: number;
  text: string;
}

export interface ExtractResult {
  files: { filename: string; total_pages: number }[];
  pages: ExtractedPage[];
  total_pages: number;
  /** True when the character cap cut the text short. */
  truncated: boolean;
  /** Pages that could not be read (damaged), each named: present only when there are some. */
  notes?: string[];
}

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
let pdfjs: Promise<PdfJs> | undefined;

// pdf.js is large: load it on the first extraction only, so a process that only creates PDFs never pays for it.
// Its require of @napi-rs/canvas (left out) finds the kit's stand-in instead of warning on the console.
const loadPdfJs = () => {
  installStandIns();
  return (pdfjs ??= import("pdfjs-dist/legacy/build/pdf.mjs"));
};

/**
 * Extracts the text of the given pages of each PDF with pdf.js (lines as the PDF's text items end them),
 * stopping at `maxChars` characters in all, or once reading has taken maxExtractMs (then `truncated`, with
 * the pages read so far). Checks the signal between pages.
 */
export async function extractText(inputs: readonly PdfInput[], range: string | undefined, maxChars: number, signal: AbortSignal): Promise<ExtractResult> {
  const { getDocument } = await loadPdfJs();
  const result: ExtractResult = { files: [], pages: [], total_pages: 0, truncated: false };
  let budget = maxChars;
  let bytesLeft: number = PDF_LIMITS.maxExtractJsonBytes;
  // A small file can still take long: 200 pages drawing one shared 15 MiB content stream took pdf.js
  // 110 s, every page parsing it again, and held the capability's work slots all along.
  const until = performance.now() + PDF_LIMITS.maxExtractMs;
  // Whether the range names a page of any file (cut to each, it may name none).
  let anyWanted = false;
  for (const [index, input] of inputs.entries()) {
    signal.throwIfAborted();
    // Streams, objects and the page tree are checked first; total_pages is the validated count.
    const tooBig = tooManyPages(input);
    const { pages: pageCount, bytes } = await checkPdf(input, signal, PDF_LIMITS.maxPdfPages, tooBig, "read");
    // pdf.js takes ownership of the array it is given: hand it a copy, the store keeps the original.
    const task = getDocument({ data: new Uint8Array(bytes), disableFontFace: true, useSystemFonts: false, verbosity: 0, stopAtErrors: false });
    const onAbort = () => void task.destroy();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      const pdf = await task.promise.catch((err: unknown) => {
        throw openError(err, input);
      });
      result.files.push({ filename: input.filename, total_pages: pageCount });
      result.total_pages += pageCount;
      // Without a range, reading stops at the page limit (and the character cap) with truncated set.
      const tooMany = (count: number) => new ToolError(`pages: asks for ${count} pages of ${input.field}; at most ${PDF_LIMITS.maxExtractPages} are read per call, give a smaller range`);
      // One range for several files is cut to each (a 5-page and a 1-page file, "2-"); for one file, a page
      // past its end is refused, as the model asked for what isn't there.
      const wanted = range
        ? parsePageRanges(range, pageCount, "pages", { maxPages: PDF_LIMITS.maxExtractPages, tooMany, clip: inputs.length > 1 })
        : [...Array(Math.min(pageCount, PDF_LIMITS.maxExtractPages)).keys()];
      if (wanted.length > 0) anyWanted = true;
      if (!range && pageCount > PDF_LIMITS.maxExtractPages) result.truncated = true;
      const lost: number[] = [];
      let lostWhy: string | undefined;
      for (const pageIndex of wanted) {
        if (budget <= 0 || bytesLeft <= 0 || performance.now() > until) {
          result.truncated = true;
          break;
        }
        signal.throwIfAborted();
        const read = await pageText(pdf, pageIndex, signal, budget);
        if ("damaged" in read) {
          // The other pages are still read: a note says which are missing, and why (the first one's reason).
          lost.push(pageIndex);
          lostWhy ??= read.damaged;
          continue;
        }
        if (read.cut) result.truncated = true;
        // Control characters never stand for text: pdf.js gives a glyph's code as one when the glyph maps to
        // no character (a mark drawn apart from its letter in right-to-left text, by ours and other writers).
        let text = read.text
          .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, "")
          .replace(/[ \t]+\n/g, "\n")
          .trimEnd();
        if (text.length > budget) {
          // Not between the halves of a character outside the BMP (an emoji): a lone half is not JSON Selu reads.
          text = sliceWhole(text, budget);
          result.truncated = true;
          budget = text.length;
        }
        if (textBytes(text) > bytesLeft) {
          text = cutToJsonBytes(text, bytesLeft);
          result.truncated = true;
          bytesLeft = 0;
        }
        budget -= text.length;
        bytesLeft -= textBytes(text);
        result.pages.push({ file: index, page: pageIndex + 1, text });
      }
      if (lost.length > 0) (result.notes ??= []).push(pagesLeftOut(input, lost, lostWhy));
    } finally {
      signal.removeEventListener("abort", onAbort);
      await task.destroy();
    }
    signal.throwIfAborted();
  }
  if (range && !anyWanted) {
    const longest = Math.max(...result.files.map((f) => f.total_pages));
    throw new ToolError(`pages: ${JSON.stringify(range)} names no page of any file; the longest has ${longest} page${longest === 1 ? "" : "s"}`);
  }
  return result;
}

/**
 * One page's text, read from pdf.js's stream of text items and cut off (`cut`) once it passes `budget`
 * characters or the page gives more than maxTextItemsPerPage items: a content stream that draws text a
 * million times (issue 10 item 2) stops there instead of building every item. A page pdf.js can't read
 * (a broken page object, bad content) gives what pdf.js said of it.
 */
type PdfDocument = Awaited<ReturnType<PdfJs["getDocument"]>["promise"]>;

async function pageText(pdf: PdfDocument, pageIndex: number, signal: AbortSignal, budget: number): Promise<{ text: string; cut: boolean } | { damaged: string }> {
  try {
    const page = await pdf.getPage(pageIndex + 1);
    const reader = page.streamTextContent().getReader();
    let text = "";
    let items = 0;
    let cut = false;
    try {
      // Whitespace is trimmed afterwards, so keep some room past the budget before cutting.
      while (!cut) {
        signal.throwIfAborted();
        const { value, done } = await reader.read();
        if (done) break;
        for (const item of (value as { items: { str?: string; hasEOL?: boolean }[] }).items) {
          if (++items > PDF_LIMITS.maxTextItemsPerPage || text.length > budget + 4_096) {
            cut = true;
            break;
          }
          if (typeof item.str === "string") text += item.str + (item.hasEOL ? "\n" : "");
        }
      }
    } finally {
      // pdf.js marks its stream closed only when cancelled with an Error: without one, its own close
      // message for the page, already sent, closed the stream again and threw out of the process.
      if (cut) await reader.cancel(new Error("the page's text was cut")).catch(() => {});
      reader.releaseLock();
      page.cleanup();
    }
    return { text, cut };
  } catch (err) {
    if (signal.aborted) throw err;
    return { damaged: errorMessage(err) };
  }
}

function openError(err: unknown, input: PdfInput): Error {
  const name = err instanceof Error ? err.name : "";
  if (name === "PasswordException") return encryptedError(input, "read");
  if (name === "InvalidPDFException" || name === "FormatError" || name === "UnknownErrorException") {
    return damagedError(input, err);
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** Size of the text inside a JSON result: UTF-8 with escapes (what counts against Selu's 49,152 bytes). */
function textBytes(text: string): number {
  return jsonBytes(text) - 2;
}

/**
 * extract_pdf_text's `fit`: the text is capped at 40,000 bytes, but thousands of (empty) page entries
 * of a scanned PDF can still pass the bound. Drops pages from the end and says the text was cut.
 */
export function fitExtract<R extends ToolResult>(result: R, maxBytes: number): R {
  const { pages } = result as unknown as ExtractResult;
  const rest = jsonBytes({ ...result, pages: [], truncated: true }) - 2;
  return { ...result, pages: pages.slice(0, itemsWithin(pages, maxBytes - rest)), truncated: true };
}
