import { errorMessage, ToolError } from "@selu-catalogue/kit";
import { sourceKey, type LoadedImage } from "../../document/images.js";
import type { PreparedBlock } from "../../document/prepare.js";
import { area, currentPage, STYLE } from "../page.js";
import type { Doc } from "../doc.js";
import { embeddablePng } from "../png-embed.js";
import { runsHeight } from "../set-runs.js";
import { fitsHere, imageBox, openImage, renderImage, type OpenedImage } from "./image.js";
import { renderList } from "./list.js";
import { type Layout, ownLayout, turnPages } from "../orientation.js";
import { renderTable, tableStartHeight, tableTurned } from "./table.js";
import { quoteHeight, renderCode, renderParagraph, renderQuote, renderRule } from "./text-blocks.js";

type ImageBlock = Extract<PreparedBlock, { kind: "image" }>;

/** Space at the bottom of a page worth filling with the blocks after an image: three lines of body text. */
const WORTH_FILLING = 3 * (STYLE.body * 1.2 + STYLE.lineGap);

/**
 * A section's blocks, in order, giving the event loop a turn between them. An image that doesn't fit
 * below the text goes to the next page; the blocks after it are set first, in the space it would leave
 * (issue 17 item 3), and the image follows them: a page is not left a quarter empty for it.
 */
export async function renderBlocks(doc: Doc, blocks: readonly PreparedBlock[], images: ReadonlyMap<string, LoadedImage>, opened: Map<string, OpenedImage>, pause: () => Promise<void>): Promise<void> {
  for (let b = 0; b < blocks.length; b++) {
    await pause();
    const block = blocks[b]!;
    turnPages(doc, layoutFor(doc, blocks, b));
    if (block.kind === "paragraph" && block.heading) {
      await renderParagraph(doc, block.runs, pause, { keep: (height) => keepWithHeading(doc, blocks, b + 1, height, images, opened) });
      continue;
    }
    if (block.kind !== "image") {
      await renderBlock(doc, block, pause);
      continue;
    }
    const image = openedImage(doc, block, images, opened);
    const box = imageBox(doc, image, block.width, block.caption);
    if (!fitsHere(doc, box) && area(doc).bottom - doc.y >= WORTH_FILLING) {
      const page = currentPage(doc);
      for (let next = blocks[b + 1]; currentPage(doc) === page && next && next.kind !== "image" && startsHere(doc, next); next = blocks[b + 1]) {
        await pause();
        await renderBlock(doc, next, pause);
        b += 1;
      }
    }
    renderImage(doc, image, box, block.caption, block.alt ?? unnamedAlt(images.get(sourceKey(block.source))?.name));
  }
}

/**
 * The orientation of the pages `blocks[at]` is set on: landscape for a table too wide for a portrait page
 * (table.ts) and the headings right before it, which go with it; else the document's own.
 */
export function layoutFor(doc: Doc, blocks: readonly PreparedBlock[], at: number): Layout {
  let next = at;
  for (let block = blocks[next]; block?.kind === "paragraph" && block.heading; block = blocks[++next]);
  const block = blocks[next];
  return block?.kind === "table" && tableTurned(doc, block) ? "landscape" : ownLayout(doc);
}

/**
 * How much of `blocks[at]`, after a heading `headingHeight` tall, must be on the heading's page, so that no
 * heading is left alone at the foot of one (issue 17 item 3): a table's header and first row (up to half a
 * page: one that starts taller is split anyway), an image with its caption when the two fit on a page
 * (both move on whole; a taller image goes on alone, the text after it filling the space), headings
 * written in the text right after it with what the last of them keeps (while they fit on a page: a
 * longer run of headings flows like text), or two lines of anything else.
 */
export function keepWithHeading(doc: Doc, blocks: readonly PreparedBlock[], at: number, headingHeight: number, images: ReadonlyMap<string, LoadedImage>, opened: Map<string, OpenedImage>): number {
  const { top, bottom, width } = area(doc);
  const lines = 2 * (doc.font("regular").fontSize(STYLE.body).currentLineHeight(true) + STYLE.lineGap) + STYLE.paragraphGap;
  // Headings right after this one come with it, as long as they all fit on a page.
  let headings = 0;
  let next = at;
  for (let block = blocks[next]; block?.kind === "paragraph" && block.heading; block = blocks[++next]) {
    headings += runsHeight(doc, block.runs, width, STYLE.body) + STYLE.paragraphGap;
    if (headingHeight + headings + lines > bottom - top) return lines;
  }
  const room = bottom - top - headingHeight - headings;
  const block = blocks[next];
  let keep = lines;
  if (block?.kind === "image") {
    const box = imageBox(doc, openedImage(doc, block, images, opened), block.width, block.caption);
    if (box.h + box.captionHeight <= room) keep = box.h + box.captionHeight;
  } else if (block?.kind === "table") keep = Math.min(tableStartHeight(doc, block), (bottom - top) / 2, room);
  return headings + keep;
}

/**
 * The alt text of a figure given none and no caption: its file's name, which often says what it shows
 * (`q3-revenue.png`), so a screen reader has more than "figure" and the tree has no figure without alt
 * text (PDF/UA 7.3).
 */
function unnamedAlt(name: string | undefined): string {
  // A name is anyone's: controls and invisible or direction-changing characters are left out.
  const shown = Array.from((name ?? "").replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "").trim())
    .slice(0, 200)
    .join("");
  return shown ? `Image: ${shown}` : "Image";
}

/**
 * Whether a block would start in the space left above an image that moved on, rather than move to the
 * next page itself: text that flows (paragraphs, lists, code, a quote longer than a page) and, when they
 * fit here, a quote and a table's header with its first row. Not another image: figures keep their order.
 */
function startsHere(doc: Doc, block: Exclude<PreparedBlock, ImageBlock>): boolean {
  const room = area(doc).bottom - doc.y;
  switch (block.kind) {
    case "paragraph":
    case "list":
    case "code":
    case "rule":
      return true;
    case "quote": {
      const height = quoteHeight(doc, block.runs);
      return height === Number.POSITIVE_INFINITY || height <= room;
    }
    case "table":
      return !tableTurned(doc, block) && tableStartHeight(doc, block) <= room;
    case "page_break":
      return false;
  }
}

async function renderBlock(doc: Doc, block: Exclude<PreparedBlock, ImageBlock>, pause: () => Promise<void>): Promise<void> {
  switch (block.kind) {
    case "paragraph":
      return renderParagraph(doc, block.runs, pause);
    case "list":
      return renderList(doc, block.items, block.ordered, block.start);
    case "table":
      return renderTable(doc, block, pause);
    case "quote":
      return renderQuote(doc, block.runs, block.attribution, pause);
    case "code":
      return renderCode(doc, block.text, block.language, pause);
    case "page_break":
      // Not on a page nothing is drawn on yet (a break right after a break).
      if (doc.y > area(doc).top + 0.5) doc.addPage();
      return;
    case "rule":
      return renderRule(doc);
  }
}

/** The image of a block, opened once per document however often it is used. */
function openedImage(doc: Doc, block: ImageBlock, images: ReadonlyMap<string, LoadedImage>, opened: Map<string, OpenedImage>): OpenedImage {
  const key = sourceKey(block.source);
  let image = opened.get(key);
  if (!image) {
    const loaded = images.get(key);
    if (!loaded) throw new Error(`image ${key} was not loaded`);
    try {
      image = (loaded.png && embeddablePng(loaded.png, `P${opened.size + 1}`)) || openImage(doc, loaded.bytes);
    } catch (err) {
      throw new ToolError(`${block.field}: the image could not be decoded (${errorMessage(err)}); check that the file is a valid PNG or JPEG`, { cause: err });
    }
    opened.set(key, image);
  }
  return image;
}
