import { formatBytes, formatCount, ToolError } from "@selu-catalogue/kit";
import { PDF_LIMITS } from "../limits.js";
import { parsePageRanges } from "./page-ranges.js";
import { checkPdf } from "./checked-pdf.js";
import { pagesLeftOut, pagesNamed } from "./page-tree.js";
import { damagedIfThrows } from "./damaged.js";
import type { PdfInput } from "./pdf-input.js";
import type { Bookmark, MarkedLinks } from "./merge-navigation.js";

export interface MergeInput extends PdfInput {
  /** Page ranges to take ("1-3,7"); all pages when absent. */
  pages: string | undefined;
}

/**
 * Concatenates the chosen pages of each PDF into a new one with pdf-lib. Encrypted inputs are read
 * decrypted (checked-pdf.ts), or refused when they need a password; damaged pages are left out, said in
 * `notes`; page counts and the output size are bounded. Each file's links to its named destinations keep working and its
 * bookmarks come along, under a bookmark of its own (merge-navigation.ts).
 */
export async function mergePdfs(inputs: readonly MergeInput[], title: string | undefined, maxBytes: number, signal: AbortSignal): Promise<{ bytes: Uint8Array; pages: number; notes: string[] }> {
  // Loaded on the first merge only: a process that only creates PDFs never holds it.
  const [{ PDFDocument }, navigation] = await Promise.all([import("pdf-lib"), import("./merge-navigation.js")]);
  const merged = await PDFDocument.create();
  const bookmarks: Bookmark[] = [];
  // What the caller should know of the result: pages left out.
  const notes: string[] = [];
  const budget = { left: navigation.MAX_BOOKMARKS };
  let total = 0;
  // pdf-lib holds a file's objects while it copies them into the merged document: each object counts twice.
  let objectsLeft = PDF_LIMITS.maxMergeObjects;
  const tooMany = () => new ToolError(`the merged PDF would have more than ${PDF_LIMITS.maxMergePages} pages; merge fewer pages`);
  for (const input of inputs) {
    signal.throwIfAborted();
    const room = PDF_LIMITS.maxMergePages - total;
    // Without a range every page is taken, so the tree may hold only what still fits; with one, any
    // document up to the per-file page bound (the ranges pick from it).
    const objectRoom = { objects: objectsLeft / 2, tooMany: (objects: number) => tooManyObjects(input, objects, objectsLeft < PDF_LIMITS.maxMergeObjects) };
    const {
      doc: source,
      pages: count,
      damaged,
      objects,
    } = await checkPdf(input, signal, input.pages ? PDF_LIMITS.maxPdfPages : room, input.pages ? tooManyPages(input) : tooMany, "merged", objectRoom);
    objectsLeft -= objects;
    // pdf-lib would give a merge of nothing one blank page, and a file of none adds nothing: said, not skipped.
    if (count === 0) throw new ToolError(`${input.field} (${input.filename}): the PDF has no pages; leave it out`);
    const wanted = input.pages ? parsePageRanges(input.pages, count, `${input.field}.pages`, { maxPages: room, tooMany }) : [...Array(count).keys()];
    // Pages are numbered as a viewer numbers them; a damaged one can't be copied, and pdf-lib's own list
    // of pages leaves it out (so its indexes skip it).
    const lost = wanted.filter((page) => damaged.includes(page));
    if (lost.length === wanted.length)
      throw new ToolError(`${input.field} (${input.filename}): ${pagesNamed(lost)} damaged and can't be read; the PDF has no other page to merge${input.pages ? " in that range" : ""}`);
    if (lost.length > 0) notes.push(pagesLeftOut(input, lost));
    const indexes = wanted.filter((page) => !damaged.includes(page)).map((page) => page - damaged.filter((d) => d < page).length);
    total += indexes.length;
    if (total > PDF_LIMITS.maxMergePages) throw tooMany();
    // A file whose navigation can't be read (a damaged object where a link or bookmark is) is merged without it.
    const marks: MarkedLinks = { arrays: [], pages: [] };
    const navigable = attempt(() => {
      navigation.prepareLinks(source, indexes, marks);
      return true;
    }, false);
    const copied = await merged.copyPages(source, indexes).catch((err: unknown) =>
      damagedIfThrows(input, () => {
        throw err;
      }),
    );
    navigation.unmark(marks);
    for (const page of copied) merged.addPage(page);
    const pages = copied.length > 0 ? navigation.pageMapOf(source, indexes, copied) : undefined;
    // Marked links are put right even when the rest of the file's navigation can't be read.
    if (pages) attempt(() => navigation.relinkMarked(merged, copied, pages, marks), undefined);
    if (navigable && pages) {
      attempt(() => navigation.relinkNamedDestinations(source, merged, copied, pages), undefined);
      const bookmark = attempt(() => navigation.fileBookmark(source, merged, copied[0]!, input.filename, pages, budget), undefined);
      if (bookmark) bookmarks.push(bookmark);
    }
    // pdf-lib works synchronously on each file: give other calls and cancellation a turn in between.
    await new Promise((resolve) => setImmediate(resolve));
  }
  signal.throwIfAborted();
  navigation.writeOutline(merged, bookmarks);
  if (title) merged.setTitle(title);
  merged.setProducer("pdf-lib");
  merged.setCreator("Selu pdf capability");
  const bytes = await merged.save({ useObjectStreams: true });
  if (bytes.byteLength > maxBytes) {
    throw new ToolError(`the merged PDF is ${formatBytes(bytes.byteLength)}, over the ${formatBytes(maxBytes)} limit for a file; merge fewer pages`);
  }
  return { bytes, pages: total, notes };
}

/** The error for an input with more objects than a merge can still hold (`after`: other files came first). */
function tooManyObjects(input: PdfInput, objects: number, after: boolean): ToolError {
  const most = formatCount(PDF_LIMITS.maxMergeObjects / 2);
  return new ToolError(
    after
      ? `${input.field} (${input.filename}): with the files before it, the PDFs have more than ${most} objects (this one ${formatCount(objects)}), more than one merge holds in memory; merge fewer files at a time`
      : `${input.field} (${input.filename}): the PDF has ${formatCount(objects)} objects, more than the ${most} a merge holds in memory; it can't be merged here, but extract_pdf_text can read it`,
  );
}

/** The error for an input whose page tree passes the per-file page bound. */
export function tooManyPages(input: PdfInput): () => ToolError {
  return () => new ToolError(`${input.field} (${input.filename}): the PDF has more than ${formatCount(PDF_LIMITS.maxPdfPages)} pages, more than this capability reads; split it first`);
}

/** What `run` returns, or `failed` (having done what it did) when it throws: navigation is best effort. */
function attempt<T>(run: () => T, failed: T): T {
  try {
    return run();
  } catch {
    return failed;
  }
}
