import type { Doc } from "./doc.js";

/** A page's orientation. */
export type Layout = "portrait" | "landscape";

interface Page {
  width: number;
  height: number;
  layout: string;
  margins: { top: number; bottom: number; left: number; right: number };
  dictionary: { data: { MediaBox: number[] } };
}

// The orientation new pages take, by document: the document's own unless a block asked for the other.
const wanted = new WeakMap<Doc, Layout>();

/**
 * Makes every page added without options (a block's page break, a wrapped line's new page) take the
 * orientation {@link turnPages} last asked for, so a table set on landscape pages goes on over landscape
 * pages and the text after it on pages of the document's own orientation.
 */
export function turnablePages(doc: Doc): void {
  const target = doc as unknown as { addPage(options?: object): Doc; options: { layout?: string } };
  const addPage = target.addPage.bind(doc);
  target.addPage = (options?: object) => {
    const layout = wanted.get(doc);
    return addPage(options ?? (layout && layout !== ownLayout(doc) ? { ...target.options, layout } : undefined));
  };
}

/** The document's own orientation (its `orientation` argument). */
export function ownLayout(doc: Doc): Layout {
  return (doc as unknown as { options: { layout?: string } }).options.layout === "landscape" ? "landscape" : "portrait";
}

/**
 * Continues on pages in `layout` from here: on a new page when the one being written has something on it
 * and is the other way round, else on this one (turned when nothing is on it yet: a page break or the
 * contents' page just before).
 */
export function turnPages(doc: Doc, layout: Layout): void {
  if (wanted.get(doc) === undefined && layout === ownLayout(doc)) return;
  wanted.set(doc, layout);
  const page = doc.page as unknown as Page;
  if (layoutOf(page) === layout) return;
  if (doc.y > page.margins.top + 0.5) {
    doc.addPage();
    return;
  }
  turnEmptyPage(doc, page, layout);
}

/**
 * Makes the document landscape from its first page on, before anything is drawn (a document given no
 * orientation that holds a table too wide for a portrait page).
 */
export function turnDocument(doc: Doc): void {
  (doc as unknown as { options: { layout?: string } }).options.layout = "landscape";
  const page = doc.page as unknown as Page;
  if (layoutOf(page) !== "landscape") turnEmptyPage(doc, page, "landscape");
}

function turnEmptyPage(doc: Doc, page: Page, layout: Layout): void {
  // Nothing drawn yet but pdfkit's flip of the y axis by the page's height (`1 0 0 -1 0 h cm`): shifted by
  // the change of height, the page's coordinates are those of a page made turned.
  const { width, height } = page;
  doc.translate(0, height - width);
  page.width = height;
  page.height = width;
  page.layout = layout;
  page.dictionary.data.MediaBox = [0, 0, height, width];
  doc.x = page.margins.left;
  doc.y = page.margins.top;
}

/** The width text has on a page in `layout` (every page of a document has the same size and margins). */
export function textWidthIn(doc: Doc, layout: Layout): number {
  const page = doc.page as unknown as Page;
  const across = layoutOf(page) === layout ? page.width : page.height;
  return across - page.margins.left - page.margins.right;
}

function layoutOf(page: Page): Layout {
  return page.width > page.height ? "landscape" : "portrait";
}
