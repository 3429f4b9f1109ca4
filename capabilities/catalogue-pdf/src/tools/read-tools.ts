import { attachments, tool } from "@selu-catalogue/kit";
import { z } from "zod";
import { repairFilename } from "../document/repair-args.js";
import { pdfFilename } from "../document/schema.js";
import { PDF_LIMITS as L } from "../limits.js";
import { extractText, fitExtract } from "../read/extract-text.js";
import { mergePdfs, type MergeInput } from "../read/merge.js";
import { PAGE_RANGES_HELP, PAGE_RANGES_PATTERN } from "../read/page-ranges.js";
import { readPdfAttachment } from "../read/pdf-input.js";

const pageRanges = z.string().max(200).regex(PAGE_RANGES_PATTERN, `expected ${PAGE_RANGES_HELP}`);

/** extract_pdf_text: the text of attached PDFs, page by page, within a character cap. */
export const extractPdfText = tool({
  description:
    "Reads the text of attached PDF files, page by page. Returns {files, pages: [{file, page, text}], total_pages, truncated, notes?}; " +
    "`file` is the index in attachments. Use `pages` to read part of a long document and `max_chars` to bound the answer. " +
    "Scanned PDFs without a text layer give empty pages.",
  input: z.object({
    attachments: attachments({ description: "PDF files to read, in order", min: 1, max: L.maxInputPdfs }),
    pages: pageRanges.optional().describe(`Pages to read from each file: ${PAGE_RANGES_HELP} (default: all; with several files, cut to each one's length)`),
    max_chars: z
      .number()
      .int()
      .min(100)
      .max(L.maxExtractChars)
      .optional()
      .describe(`Stop after this many characters in all (default ${L.defaultExtractChars}); truncated is true when it cut the text`),
  }),
  repair: pagesOnceForAll,
  policy: "allow",
  fit: fitExtract,
  async run(args, ctx) {
    const inputs = args.attachments.map((a, i) => readPdfAttachment(a, i, ctx));
    // Holds whole PDFs parsed in memory: it takes every work slot.
    return { ...(await ctx.slots.run(() => extractText(inputs, args.pages, args.max_chars ?? L.defaultExtractChars, ctx.signal), L.workSlots)) };
  },
});

// Selu keeps the other keys of an attachment element, so each file can carry its own page ranges.
const mergeFiles = attachments({
  description: "PDF files to merge, in order; each may name the pages to take",
  min: 1,
  max: L.maxInputPdfs,
  fields: { pages: pageRanges.optional().describe(`Pages to take from this file: ${PAGE_RANGES_HELP} (default: all)`) },
});

/** merge_pdfs: attached PDFs (or some of their pages) joined into one PDF artifact. */
export const mergePdfsTool = tool({
  description:
    'Joins attached PDF files into one PDF, in the order given; each attachment may carry `pages` (e.g. "1-3,7") to take only those pages. ' +
    "Returns the merged PDF as an artifact, its page count and size, and `notes` on pages left out (damaged).",
  input: z.object({
    attachments: mergeFiles,
    filename: pdfFilename("merged.pdf").optional().describe("File name of the result (default merged.pdf)"),
    title: z.string().min(1).max(300).optional().describe("Title stored in the merged PDF's metadata"),
  }),
  repair: (args) => {
    const renamed = pagesByName(args);
    return repairFilename(args) || renamed;
  },
  policy: "allow",
  // Not terminal: Selu would show the user this JSON result verbatim as the whole reply and end the turn
  // (before a follow-up such as emailing the file). The model answers instead; the file is attached anyway.
  terminalOnSuccess: false,
  async run(args, ctx) {
    const inputs: MergeInput[] = args.attachments.map((a, i) => ({ ...readPdfAttachment(a, i, ctx), pages: a.pages }));
    const { bytes, pages, notes } = await ctx.slots.run(() => mergePdfs(inputs, args.title, ctx.limits.maxArtifactBytes, ctx.signal), L.workSlots);
    const artifact = await ctx.artifacts.put(bytes, { filename: args.filename ?? "merged.pdf", mimeType: "application/pdf" });
    return { ok: true, artifact, pages, size_bytes: bytes.byteLength, ...(notes.length > 0 ? { notes } : {}) };
  },
});

type Element = Record<string, unknown>;
const elementsOf = (args: Record<string, unknown>): Element[] =>
  Array.isArray(args.attachments) ? args.attachments.filter((a): a is Element => typeof a === "object" && a !== null && !Array.isArray(a)) : [];

/**
 * extract_pdf_text reads `pages` once, for every file: the same `pages` given on each attachment (as
 * merge_pdfs takes them) is taken as that; true when changed. Different ones stay, refused by name.
 */
function pagesOnceForAll(args: Record<string, unknown>): boolean {
  const elements = elementsOf(args);
  const given = elements.map((e) => e.pages);
  if (args.pages !== undefined || elements.length === 0 || typeof given[0] !== "string" || given.some((p) => p !== given[0])) return false;
  args.pages = given[0];
  for (const e of elements) delete e.pages;
  return true;
}

// Other names models give a file's pages in merge_pdfs.
const PAGES_KEYS = ["page", "page_range", "pageRange", "page_ranges", "range", "ranges"];

/** merge_pdfs: a file's pages under another name (`page`, `page_range`, …) as its `pages`; true when changed. */
function pagesByName(args: Record<string, unknown>): boolean {
  let changed = false;
  for (const e of elementsOf(args)) {
    const key = PAGES_KEYS.find((k) => k in e);
    if (key === undefined || e.pages !== undefined) continue;
    e.pages = typeof e[key] === "number" ? String(e[key]) : e[key];
    delete e[key];
    changed = true;
  }
  return changed;
}
