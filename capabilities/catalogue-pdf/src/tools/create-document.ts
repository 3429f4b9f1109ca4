import { tool, type ToolContext } from "@selu-catalogue/kit";
import { holdAttachments, loadImages } from "../document/images.js";
import { prepareDocument, type PreparedDocument } from "../document/prepare.js";
import { repairDocumentArgs } from "../document/repair-args.js";
import { filenameFrom } from "../document/filename.js";
import { createDocumentInput, type CreateDocumentArgs } from "../document/schema.js";
import { CREATE_ARGS_BOUNDS, PDF_LIMITS } from "../limits.js";
import { coverage } from "../text/font-runs.js";
import { renderDocument } from "../render/render-document.js";

/** create_pdf_document: the document model in, one PDF artifact out. */
export const createPdfDocument = tool({
  description:
    "Creates a PDF document (report, letter, summary, handout) from a title and sections of typed blocks: paragraphs with " +
    "**bold**, *italic*, `code` and [links](https://…), bullet and numbered lists (nested), tables, quotes, code blocks, " +
    "images (attached PNG/JPEG or https URLs) and page breaks; optional table of contents, header, footer and page numbers. " +
    "Text may be in any major script (Latin, Greek, Cyrillic, Arabic, Hebrew, Indic, Sinhala, Tibetan, Thai, Lao, Khmer, Myanmar, Ethiopic, Chinese, Japanese, Korean, and smaller ones such as Syriac, Thaana, N'Ko, Tifinagh or Cherokee) and emoji; right-to-left text is laid out by the Unicode bidi algorithm. Returns the PDF as an artifact, its page count and size.",
  input: createDocumentInput,
  args: CREATE_ARGS_BOUNDS,
  policy: "allow",
  // Not terminal: Selu would show the user this JSON result verbatim as the whole reply and end the turn
  // (before a follow-up such as emailing the file). The model answers instead; the file is attached anyway.
  terminalOnSuccess: false,
  // Block types and keys of other document models (a `heading`, a table's `headers`) taken as meant.
  repair: repairDocumentArgs,
  async run(args, ctx) {
    const prepared = prepareDocument(args, coverage());
    // The slot is taken before the images are decoded: waiting calls hold their arguments and their
    // attachments, looked up first so that other calls' outputs can't evict them meanwhile.
    const held = holdAttachments(prepared, args.attachments ?? [], ctx);
    const { bytes, pages } = await ctx.slots.run(() => loadAndRender(prepared, args, held), 1);
    const filename = args.filename ?? filenameFrom(args.title);
    const artifact = await ctx.artifacts.put(bytes, { filename, mimeType: "application/pdf" });
    return { ok: true, artifact, pages, size_bytes: bytes.length };
  },
});

/** Loads the document's images (attachments, URLs) and renders it. */
async function loadAndRender(prepared: PreparedDocument, args: CreateDocumentArgs, ctx: ToolContext) {
  const images = await loadImages(prepared, args.attachments ?? [], ctx);
  return renderDocument(prepared, images, {
    pageSize: args.page_size ?? "A4",
    ...(args.orientation ? { orientation: args.orientation } : {}),
    language: args.language,
    tableOfContents: args.table_of_contents ?? false,
    pageNumbers: args.page_numbers ?? true,
    metadata: {
      title: prepared.title,
      author: args.author,
      subject: args.subject,
      keywords: args.keywords?.map((keyword) => keyword.trim()).filter(Boolean),
      creationDate: args.creation_date ? new Date(args.creation_date) : new Date(),
    },
    maxPages: PDF_LIMITS.maxPages,
    maxBytes: ctx.limits.maxArtifactBytes,
    signal: ctx.signal,
  });
}
