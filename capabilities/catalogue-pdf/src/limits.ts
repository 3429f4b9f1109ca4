/** Bounds of the pdf capability; each is stated in the README and enforced with an error naming it. */
export const PDF_LIMITS = {
  /** Pages a created document may have; rendering stops as soon as it passes this. */
  maxPages: 200,
  /** Images in one document (attachments and URLs together). */
  maxImages: 20,
  /** Pixels of one image (width × height). */
  maxImagePixels: 16_000_000,
  /**
   * Pixels of a PNG that pdfkit decodes in memory (alpha channel, palette transparency, interlacing):
   * it holds about 8 bytes a pixel while splitting the alpha channel.
   */
  maxDecodedImagePixels: 4_000_000,
  /** Sections of one document. */
  maxSections: 100,
  /** Blocks in one section. */
  maxBlocksPerSection: 300,
  /**
   * Characters of one paragraph, quote or code block: as many as a document may have, so long pasted
   * text renders across pages (issue 17 item 2), bounded by the document's characters and pages.
   */
  maxBlockChars: 200_000,
  /** Characters of one list item (drawn and measured in one piece; long text belongs in paragraphs). */
  maxItemChars: 20_000,
  /** Characters of all text in one document. */
  maxDocumentChars: 200_000,
  /** Items of one list, nested items included. */
  maxListItems: 500,
  /** Nesting depth of lists (1 = no nested items). */
  maxListDepth: 4,
  /** The highest first number of a numbered list (its markers must fit their column). */
  maxListStart: 100_000,
  /** Columns of one table. */
  maxTableColumns: 20,
  /** Rows of one table. */
  maxTableRows: 2_000,
  /** Characters of one table cell. */
  maxCellChars: 2_000,
  /** PDF files one call reads (extract) or merges. */
  maxInputPdfs: 20,
  /** Pages of all inputs of one merge. */
  maxMergePages: 1_000,
  /** Pages one extract call reads from a file. */
  maxExtractPages: 500,
  /** Characters extract_pdf_text returns by default and at most (Selu truncates results past ~48 KiB). */
  defaultExtractChars: 20_000,
  maxExtractChars: 40_000,
  /**
   * Heavy work at once (the kit's ctx.slots): two renders, or one merge or extraction, which hold whole
   * PDFs parsed in memory. It is CPU-bound on one thread: more at once adds memory, not speed.
   */
  workSlots: 2,
  /** Calls at once: the manifest's sharing.max_concurrent; more wait (4 at most, 30 s), then are refused. */
  maxConcurrent: 4,
  /**
   * Files held at once, in and out: every running call with a 5 MiB image and its 5 MiB document. A
   * running call's attachments are never evicted, so a smaller store would refuse calls in a burst.
   */
  artifactBudgetBytes: 4 * 2 * 5 * 1024 * 1024,
  /** Bytes of extracted text as JSON (UTF-8, escapes included): Greek or Cyrillic take two bytes a letter. */
  maxExtractJsonBytes: 40_000,
  /**
   * What one input PDF may decode to, checked on the raw bytes before pdf.js or pdf-lib reads it
   * (neither bounds what it inflates; issue 10 item 2). A stream that isn't an image (page content,
   * fonts, object streams) decodes to at most 16 MiB and all of them to 64 MiB; an image to 64 MiB,
   * all images to 256 MiB (extract and merge never decode images, so that bound is for time).
   */
  maxStreamDecodedBytes: 16 * 1024 * 1024,
  maxPdfDecodedBytes: 64 * 1024 * 1024,
  maxImageStreamDecodedBytes: 64 * 1024 * 1024,
  maxPdfImageDecodedBytes: 256 * 1024 * 1024,
  /**
   * Streams and objects of one input PDF: pdf-lib holds each object it parses in about 0.65 KiB of heap
   * (100,000 small ones took 67 MiB, of the 128 the process has).
   */
  maxPdfStreams: 20_000,
  maxPdfObjects: 80_000,
  /**
   * Objects a merge holds, counting each input's twice (pdf-lib keeps the file it copies from while the
   * copies grow): a 781 KB file of 75,000 small objects ran the process out of its 128 MiB heap.
   */
  maxMergeObjects: 80_000,
  /**
   * What a PDF's object streams may decode to in all: pdf-lib parses it into objects, a string a character
   * at a time, some 15 times its size in heap (10,000 bookmarks of 500 characters, 40 MB of object
   * streams from a 270 KB file, took 615 MiB).
   */
  maxObjectStreamDecodedBytes: 5 * 1024 * 1024,
  /** Pages of one input PDF, counted by walking its page tree (each node once) before anything else reads it. */
  maxPdfPages: 10_000,
  /** Nesting depth of a page tree (writers use 3-5 levels even for thousands of pages). */
  maxPageTreeDepth: 64,
  /** How long extract_pdf_text reads pages before it answers with those it has (`truncated`). */
  maxExtractMs: 20_000,
  /** Text pieces pdf.js may give for one page; a page drawing the same text a million times stops here. */
  maxTextItemsPerPage: 100_000,
} as const;

/**
 * Bounds on create_pdf_document's `args_json`, from the limits above: every section full of small blocks
 * (about three values each) plus one table at its largest; text up to the document's characters at three
 * UTF-8 bytes each, plus the JSON around it. The kit's defaults (10,000 values) are too few for that.
 */
export const CREATE_ARGS_BOUNDS = {
  maxValues: PDF_LIMITS.maxSections * PDF_LIMITS.maxBlocksPerSection * 3 + PDF_LIMITS.maxTableRows * (PDF_LIMITS.maxTableColumns + 1),
  maxBytes: PDF_LIMITS.maxDocumentChars * 3 + 2 * 1024 * 1024,
} as const;
