import { area, ensureSpace, runOf, STYLE, writeRuns } from "../page.js";
import type { Doc } from "../doc.js";
import { tagsOf } from "../tags.js";

/** What pdfkit's openImage returns (missing from @types/pdfkit): an embeddable image with its pixel size. */
export interface OpenedImage {
  width: number;
  height: number;
}

/** pdfkit decodes an image once with openImage; the result can be drawn any number of times. */
export function openImage(doc: Doc, bytes: Buffer): OpenedImage {
  return (doc as unknown as { openImage(src: Buffer): OpenedImage }).openImage(bytes);
}

const CAPTION_GAP = 4;

/** The size an image is drawn at and the height of its caption (see {@link renderImage}). */
export interface ImageBox {
  w: number;
  h: number;
  captionHeight: number;
}

/** At its natural size (96 dpi) or `fraction` of the text width, never wider than the text or taller than a page. */
export function imageBox(doc: Doc, image: OpenedImage, fraction: number | undefined, caption: string | undefined): ImageBox {
  const { width, top, bottom } = area(doc);
  doc.font("italic").fontSize(STYLE.small);
  const captionHeight = caption ? CAPTION_GAP + doc.heightOfString(caption, { width, align: "center" }) : 0;
  let w = fraction !== undefined ? width * fraction : Math.min(width, image.width * 0.75);
  let h = (w * image.height) / image.width;
  const maxHeight = bottom - top - captionHeight - 4;
  if (h > maxHeight) {
    w *= maxHeight / h;
    h = maxHeight;
  }
  return { w, h, captionHeight };
}

/** Whether an image of this box fits below the current position. */
export function fitsHere(doc: Doc, box: ImageBox): boolean {
  return doc.y + box.h + box.captionHeight <= area(doc).bottom;
}

/** An image centred on the text width, with its caption kept on the same page. */
export function renderImage(doc: Doc, image: OpenedImage, box: ImageBox, caption: string | undefined, alt: string | undefined): void {
  const { left, width } = area(doc);
  const { w, h, captionHeight } = box;
  ensureSpace(doc, h + captionHeight);
  const y = doc.y;
  const tags = tagsOf(doc);
  // Screen readers read the alt text in place of the picture (the caption unless one was given).
  tags.open("Figure", alt ? { alt } : {});
  tags.content(() => doc.image(image as unknown as Buffer, left + (width - w) / 2, y, { width: w, height: h }));
  doc.y = y + h;
  if (caption) {
    doc.y += CAPTION_GAP;
    tags.leaf("Caption", () => writeRuns(doc, [runOf(caption, "italic")], { x: left, width, size: STYLE.small, color: STYLE.muted, align: "center" }));
  }
  tags.close();
  doc.x = left;
  doc.y += STYLE.paragraphGap + 2;
}
