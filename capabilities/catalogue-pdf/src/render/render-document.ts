import { ToolError } from "@selu-catalogue/kit";
import PDFDocument from "pdfkit";
import type { LoadedImage } from "../document/images.js";
import type { PreparedDocument } from "../document/prepare.js";
import { markComplexFragments } from "../text/actual-text.js";
import { attachText } from "../text/doc-text.js";
import { keepWithHeading, layoutFor, renderBlocks } from "./blocks/flow.js";
import type { OpenedImage } from "./blocks/image.js";
import { registerFaces } from "./fonts.js";
import { destination, fillContents, reserveContents } from "./contents.js";
import { labelsFor } from "./labels.js";
import { boundLayoutCaches } from "./layout-cache.js";
import { objectStreams } from "./object-streams.js";
import { turnablePages, turnDocument, turnPages } from "./orientation.js";
import { tooWideForPortrait } from "./blocks/table.js";
import { batchWrites } from "./pdf-writes.js";
import { keepColors } from "./colors.js";
import { leanObjects } from "./pdf-objects.js";
import { collectOutput } from "./output.js";
import { area, currentPage, ensureSpace, runOf, STYLE } from "./page.js";
import { brokenHeight } from "./line-break.js";
import { setRuns } from "./set-runs.js";
import type { Doc } from "./doc.js";
import { writePageFurniture } from "./page-furniture.js";
import { startTags, tagsOf } from "./tags.js";
import { inReadingOrder } from "./struct-element.js";
import { escapeXmpInfo } from "./xmp-info.js";

export interface RenderOptions {
  pageSize: "A4" | "Letter";
  /** Unset: portrait, or landscape when a table is too wide for a portrait page. */
  orientation?: "portrait" | "landscape";
  language: string | undefined;
  tableOfContents: boolean;
  pageNumbers: boolean;
  metadata: { title: string; author?: string | undefined; subject?: string | undefined; keywords?: readonly string[] | undefined; creationDate: Date };
  maxPages: number;
  /** The output is refused as soon as it grows past this many bytes. */
  maxBytes: number;
  signal: AbortSignal;
}

export interface RenderedPdf {
  bytes: Buffer;
  pages: number;
}

/** A slice of rendering time after which we give the event loop a turn (cancellation, other calls). */
const SLICE_MS = 8;

/**
 * Renders a prepared document with pdfkit. Pages are buffered so the table of contents and the
 * header/footer ("Page 2 of 5") can be written once the page count is known. Between blocks (and every
 * few table rows) the event loop gets a turn, so the call's signal can stop a long render and concurrent
 * calls make progress.
 */
export async function renderDocument(prepared: PreparedDocument, images: ReadonlyMap<string, LoadedImage>, options: RenderOptions): Promise<RenderedPdf> {
  const { signal } = options;
  signal.throwIfAborted();
  const doc: Doc = new PDFDocument({
    size: options.pageSize === "Letter" ? "LETTER" : "A4",
    layout: options.orientation ?? "portrait",
    margins: STYLE.margin,
    bufferPages: true,
    // No default font: pdfkit would open Helvetica, and a font object given here is registered under its
    // PostScript name rather than ours, which makes pdfkit re-open it on every later switch.
    font: null as unknown as string,
    pdfVersion: "1.7",
    displayTitle: true,
    // A structure tree for screen readers (issue 17 item 4; render/tags.ts).
    tagged: true,
    ...(options.language ? { lang: options.language } : {}),
    info: {
      Title: options.metadata.title,
      ...(options.metadata.author ? { Author: options.metadata.author } : {}),
      ...(options.metadata.subject ? { Subject: options.metadata.subject } : {}),
      ...(options.metadata.keywords?.length ? { Keywords: options.metadata.keywords.join(", ") } : {}),
      CreationDate: options.metadata.creationDate,
      ModDate: options.metadata.creationDate,
      Creator: "Selu pdf capability",
      Producer: "PDFKit",
    },
  });
  escapeXmpInfo(doc);
  // Before batchWrites, which wraps the first page's writing in turn.
  leanObjects(doc);
  registerFaces(doc);
  boundLayoutCaches(doc);
  batchWrites(doc);
  turnablePages(doc);
  keepColors(doc);
  attachText(doc, options.language, prepared.rightToLeft);
  markComplexFragments(doc);
  doc.font("regular");
  // The structure tree's many small dictionaries go in object streams (render/object-streams.ts).
  const tags = startTags(doc, objectStreams(doc));

  const output = collectOutput(doc, options.maxBytes);
  let pages = 1;
  doc.on("pageAdded", () => {
    pages += 1;
    if (pages > options.maxPages) {
      throw new ToolError(`the document would have more than ${options.maxPages} pages; shorten it or split it into several documents`);
    }
  });
  let sliceStart = performance.now();
  const pause = async () => {
    output.check();
    signal.throwIfAborted();
    if (performance.now() - sliceStart < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    signal.throwIfAborted();
    sliceStart = performance.now();
  };

  try {
    const labels = labelsFor(options.language);
    // Given no orientation, a document holding a table too wide for a portrait page is landscape throughout:
    // one way round, rather than the table's pages turned among portrait ones (mostly empty around it).
    if (!options.orientation && prepared.sections.some((s) => s.blocks.some((b) => b.kind === "table" && tooWideForPortrait(doc, b)))) turnDocument(doc);
    writeTitle(doc, prepared);
    const toc = options.tableOfContents ? reserveContents(doc, prepared, labels) : { slots: [] };
    const opened = new Map<string, OpenedImage>();
    const headingPages: number[] = [];
    for (const [s, section] of prepared.sections.entries()) {
      tags.open("Sect");
      turnPages(doc, layoutFor(doc, section.blocks, 0));
      // A section without a heading (a letter's body) goes on where the last one ended.
      headingPages.push(section.heading === undefined ? currentPage(doc) : writeHeading(doc, section.heading, s, (height) => keepWithHeading(doc, section.blocks, 0, height, images, opened)));
      await renderBlocks(doc, section.blocks, images, opened, pause);
      tags.close();
    }
    await pause();
    fillContents(doc, prepared, toc, headingPages);
    writePageFurniture(doc, prepared, options.pageNumbers, labels);
    tags.end();
    doc.end();
    return { bytes: await output.done, pages };
  } catch (err) {
    output.abandon();
    throw err;
  }
}

function writeTitle(doc: Doc, prepared: PreparedDocument): void {
  const { left, width } = area(doc);
  const tags = tagsOf(doc);
  tags.leaf("H1", () => setRuns(doc, [runOf(prepared.title, "bold")], { x: left, width, size: STYLE.title, lineGap: 1 }), inReadingOrder(prepared.title));
  if (prepared.subtitle) {
    doc.y += 3;
    tags.leaf("P", () => setRuns(doc, [runOf(prepared.subtitle!, "regular")], { x: left, width, size: STYLE.subtitle, color: STYLE.muted }));
  }
  if (prepared.byline) {
    doc.y += 4;
    tags.leaf("P", () => setRuns(doc, [runOf(prepared.byline!, "regular")], { x: left, width, size: STYLE.small + 1, color: STYLE.muted }));
  }
  doc.y += 8;
  tags.artifact(() =>
    doc
      .save()
      .moveTo(left, doc.y)
      .lineTo(left + width, doc.y)
      .lineWidth(0.8)
      .strokeColor(STYLE.rule)
      .stroke()
      .restore(),
  );
  doc.y += 14;
}

/** Writes a section heading (a link target and an outline entry); returns the page it is on. */
function writeHeading(doc: Doc, heading: string, s: number, keep: (height: number) => number): number {
  const { left, width } = area(doc);
  // With the space above and below it.
  const height = (brokenHeight(doc, [runOf(heading, "bold")], width, STYLE.heading, 0) ?? doc.font("bold").fontSize(STYLE.heading).heightOfString(heading, { width })) + 11;
  // Keep a heading with the start of what follows it (see keepWithHeading).
  ensureSpace(doc, height + keep(height));
  if (doc.y > area(doc).top + 1) doc.y += 6;
  doc.outline.addItem(heading);
  const page = currentPage(doc);
  tagsOf(doc).leaf(
    "H2",
    () => setRuns(doc, [runOf(heading, "bold")], { x: left, width, size: STYLE.heading, first: { destination: destination(s) } as PDFKit.Mixins.TextOptions }),
    inReadingOrder(heading),
  );
  doc.y += 5;
  return page;
}
