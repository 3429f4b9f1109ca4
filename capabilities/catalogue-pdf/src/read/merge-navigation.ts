import { sliceWhole } from "@selu-catalogue/kit";
import { PDFArray, PDFDict, type PDFDocument, PDFHexString, PDFName, PDFNull, PDFNumber, type PDFObject, type PDFPage, PDFRef, PDFString } from "pdf-lib";

// What merge_pdfs keeps of each file's navigation, which pdf-lib's copyPages leaves behind: links to named
// destinations (a contents page's entries) are pointed at the copied pages, and the merged file gets an
// outline, a bookmark per file (its title, else its file name) with the file's own bookmarks under it.
// A file is anyone's: every object is looked up leniently (an entry of another type than the format says
// is left out, not an error), each once, within bounds (an outline or a name tree may loop or hold
// millions), and merge.ts merges a file whose navigation can't be read without it.

/** Bookmarks read from all files of a merge at most, and the characters of a title kept. */
export const MAX_BOOKMARKS = 2_000;
const MAX_TITLE = 200;
/** Named destinations read from one file at most (a long LaTeX document has tens of thousands). */
const MAX_NAMES = 50_000;
/** Annotations of one page looked at at most. */
const MAX_ANNOTS = 10_000;
/** Nesting read at most, in a name tree or an outline. */
const MAX_DEPTH = 32;

/** One file's pages in the merged file: its page objects (by reference), each's first copy. */
export type PageMap = ReadonlyMap<PDFRef, PDFRef>;

/** A bookmark to write: its title, the merged page and view it goes to, its own bookmarks. */
export interface Bookmark {
  title: string;
  target: PDFArray;
  children: Bookmark[];
}

/** How many more bookmarks the merge may hold (shared by its files). */
export interface BookmarkBudget {
  left: number;
}

/** The page map of pages `indexes` of `source` copied as `copied` (a page taken twice goes to its first copy). */
export function pageMapOf(source: PDFDocument, indexes: readonly number[], copied: readonly PDFPage[]): PageMap {
  const pages = source.getPages();
  const map = new Map<PDFRef, PDFRef>();
  indexes.forEach((index, i) => {
    const ref = pages[index]!.ref;
    if (!map.has(ref)) map.set(ref, copied[i]!.ref);
  });
  return map;
}

/** A link's explicit destination to a page taken, marked while the pages are copied (prepareLinks). */
export interface MarkedLinks {
  /** The destinations marked, each with the page object it held. */
  arrays: { array: PDFArray; page: PDFRef }[];
  /** The pages marked, by mark number. */
  pages: PDFRef[];
}

/** How a mark's name starts: no destination's first element is a name. */
const MARK = "SeluMergedPage";

/**
 * Before the pages are copied, the links of those taken with an explicit destination (a page object):
 * - to a page not taken, the link loses its destination and action (it would go nowhere, and copyPages
 *   would copy that page, content and all, as an object outside the page tree);
 * - to a page taken, its destination gets a mark, a name, in place of the page object. pdf-lib copies a
 *   page reached through a reference as an object of its own, apart from the copy it puts in the page
 *   tree: the link would go to a page outside the tree. `relinkMarked` then puts the page tree's copy in
 *   the copied link, and `unmark` the page back in the file's own destination (bookmarks and named
 *   destinations read it after).
 */
export function prepareLinks(source: PDFDocument, indexes: readonly number[], marks: MarkedLinks): void {
  const pages = source.getPages();
  const taken = new Set(indexes.map((i) => pages[i]!.ref));
  const numbers = new Map<PDFRef, number>();
  const seen = new Set<PDFDict>();
  for (const index of new Set(indexes)) {
    for (const annot of annotationsOf(source, pages[index]!, seen)) {
      const at = destinationHolder(source, annot);
      if (!at) continue;
      const dest = resolved(source, at.holder.get(PDFName.of(at.key)));
      const page = dest instanceof PDFArray && dest.size() > 0 ? dest.get(0) : undefined;
      if (!(page instanceof PDFRef)) continue;
      if (!taken.has(page)) {
        goesNowhere(annot, at.key);
        continue;
      }
      let number = numbers.get(page);
      if (number === undefined) {
        number = marks.pages.push(page) - 1;
        numbers.set(page, number);
      }
      marks.arrays.push({ array: dest as PDFArray, page });
      (dest as PDFArray).set(0, PDFName.of(`${MARK}${number}`));
    }
  }
}

/** Puts each marked destination's page object back in the source file. */
export function unmark(marks: MarkedLinks): void {
  for (const { array, page } of marks.arrays) array.set(0, page);
}

/** After: the copied links' marks replaced by the copied pages in the merged page tree. */
export function relinkMarked(merged: PDFDocument, copied: readonly PDFPage[], pages: PageMap, marks: MarkedLinks): void {
  if (marks.pages.length === 0) return;
  const seen = new Set<PDFDict>();
  for (const page of copied) {
    for (const annot of annotationsOf(merged, page, seen)) {
      const at = destinationHolder(merged, annot);
      if (!at) continue;
      const dest = resolved(merged, at.holder.get(PDFName.of(at.key)));
      const first = dest instanceof PDFArray && dest.size() > 0 ? dest.get(0) : undefined;
      if (!(first instanceof PDFName) || !first.decodeText().startsWith(MARK)) continue;
      const source = marks.pages[Number(first.decodeText().slice(MARK.length))];
      const target = source && pages.get(source);
      if (target) (dest as PDFArray).set(0, target);
      else goesNowhere(annot, at.key);
    }
  }
}

/**
 * After: points the copied pages' links to a named destination of their file at the page it names, as an
 * explicit destination in the merged file; a link to a page not taken loses its action.
 */
export function relinkNamedDestinations(source: PDFDocument, merged: PDFDocument, copied: readonly PDFPage[], pages: PageMap): void {
  const seen = new Set<PDFDict>();
  for (const page of copied) {
    for (const annot of annotationsOf(merged, page, seen)) {
      const at = destinationHolder(merged, annot);
      if (!at) continue;
      const name = nameOf(resolved(merged, at.holder.get(PDFName.of(at.key))));
      if (name === undefined) continue;
      const target = explicit(source, namedDestinations(source).get(name), pages, merged);
      if (target) at.holder.set(PDFName.of(at.key), target);
      else goesNowhere(annot, at.key);
    }
  }
}

/** A file's own bookmark: its title (else its file name), to its first page taken, its bookmarks under it. */
export function fileBookmark(source: PDFDocument, merged: PDFDocument, first: PDFPage, filename: string, pages: PageMap, budget: BookmarkBudget): Bookmark | undefined {
  if (budget.left <= 0) return undefined;
  budget.left -= 1;
  let title = "";
  try {
    title = source.getTitle()?.trim() ?? "";
  } catch {
    // A title that is no string: the file name then.
  }
  return { title: sliceWhole(title || filename, MAX_TITLE), target: merged.context.obj([first.ref, PDFName.of("Fit")]), children: bookmarksOf(source, merged, pages, budget) };
}

/** The bookmarks of `source`, their destinations in the merged file (those to pages not taken left out). */
function bookmarksOf(source: PDFDocument, merged: PDFDocument, pages: PageMap, budget: BookmarkBudget): Bookmark[] {
  const outlines = dictOf(source, source.catalog.get(PDFName.of("Outlines")));
  if (!outlines) return [];
  const seen = new Set<PDFDict>([outlines]);
  const read = (first: PDFObject | undefined, depth: number): Bookmark[] => {
    const items: Bookmark[] = [];
    for (let item = dictOf(source, first); item && !seen.has(item) && budget.left > 0; item = dictOf(source, item.get(PDFName.of("Next")))) {
      seen.add(item);
      const children = depth < MAX_DEPTH ? read(item.get(PDFName.of("First")), depth + 1) : [];
      // Found as a link's: its GoTo action's, else its own.
      const at = destinationHolder(source, item);
      let dest = at && resolved(source, at.holder.get(PDFName.of(at.key)));
      const name = nameOf(dest);
      if (name !== undefined) dest = namedDestinations(source).get(name);
      const target = explicit(source, dest, pages, merged);
      // A bookmark to a page not taken goes, its own bookmarks (if any go somewhere) moving up in its place.
      if (target) {
        budget.left -= 1;
        const title = resolved(source, item.get(PDFName.of("Title")));
        items.push({ title: title instanceof PDFString || title instanceof PDFHexString ? sliceWhole(title.decodeText(), MAX_TITLE) : "Untitled", target, children });
      } else items.push(...children);
    }
    return items;
  };
  return read(outlines.get(PDFName.of("First")), 1);
}

/** Writes `bookmarks` as the merged file's outline (PDF 32000-1, 12.3.3), closed below the first level. */
export function writeOutline(merged: PDFDocument, bookmarks: readonly Bookmark[]): void {
  if (bookmarks.length === 0) return;
  const { context } = merged;
  const root = context.obj({ Type: "Outlines" });
  const rootRef = context.register(root);
  const level = (items: readonly Bookmark[], parent: PDFRef, parentDict: PDFDict): number => {
    const refs = items.map(() => context.nextRef());
    let count = 0;
    items.forEach((item, i) => {
      const dict = context.obj({});
      dict.set(PDFName.of("Title"), hexText(item.title));
      dict.set(PDFName.of("Parent"), parent);
      if (i > 0) dict.set(PDFName.of("Prev"), refs[i - 1]!);
      if (i < items.length - 1) dict.set(PDFName.of("Next"), refs[i + 1]!);
      dict.set(PDFName.of("Dest"), item.target);
      const below = item.children.length > 0 ? level(item.children, refs[i]!, dict) : 0;
      // Negative: the item starts closed, its descendants counted but not shown.
      if (below > 0) dict.set(PDFName.of("Count"), PDFNumber.of(parent === rootRef ? below : -below));
      context.assign(refs[i]!, dict);
      count += 1 + (parent === rootRef ? below : 0);
    });
    parentDict.set(PDFName.of("First"), refs[0]!);
    parentDict.set(PDFName.of("Last"), refs.at(-1)!);
    return count;
  };
  root.set(PDFName.of("Count"), PDFNumber.of(level(bookmarks, rootRef, root)));
  merged.catalog.set(PDFName.of("Outlines"), rootRef);
}

/**
 * Text as a PDF text string in UTF-16BE, written as hex in one piece (pdf-lib's `fromText` joins a piece
 * per character: some 28 KB for a 500-character title).
 */
function hexText(text: string): PDFHexString {
  return PDFHexString.of(`FEFF${Buffer.from(text, "utf16le").swap16().toString("hex")}`);
}

/** The annotations of a page, each once across calls sharing `seen` (pages may share one array). */
function* annotationsOf(doc: PDFDocument, page: PDFPage, seen: Set<PDFDict>): Generator<PDFDict> {
  const annots = resolved(doc, page.node.get(PDFName.of("Annots")));
  if (!(annots instanceof PDFArray)) return;
  for (let i = 0; i < annots.size() && i < MAX_ANNOTS; i++) {
    const annot = dictOf(doc, annots.get(i));
    if (!annot || seen.has(annot)) continue;
    seen.add(annot);
    yield annot;
  }
}

/**
 * Where a link (or a bookmark) keeps its destination: its GoTo action's /D, else its own /Dest; undefined
 * for none that goes to a place.
 */
function destinationHolder(doc: PDFDocument, annot: PDFDict): { holder: PDFDict; key: "D" | "Dest" } | undefined {
  const action = dictOf(doc, annot.get(PDFName.of("A")));
  if (action) return action.get(PDFName.of("S")) === PDFName.of("GoTo") ? { holder: action, key: "D" } : undefined;
  return annot.has(PDFName.of("Dest")) ? { holder: annot, key: "Dest" } : undefined;
}

/** Takes a link's destination away: its GoTo action (one without a destination is not allowed), or its /Dest. */
function goesNowhere(annot: PDFDict, key: "D" | "Dest"): void {
  annot.delete(PDFName.of(key === "D" ? "A" : "Dest"));
}

/**
 * A file's named destinations (its /Names /Dests tree, or the catalog's older /Dests dictionary), by name:
 * read at the first link or bookmark that names one, once per file.
 */
function namedDestinations(source: PDFDocument): Map<string, PDFObject> {
  let found = named.get(source);
  if (!found) {
    found = readNamedDestinations(source);
    named.set(source, found);
  }
  return found;
}

const named = new WeakMap<PDFDocument, Map<string, PDFObject>>();

function readNamedDestinations(source: PDFDocument): Map<string, PDFObject> {
  const found = new Map<string, PDFObject>();
  const seen = new Set<PDFDict>();
  const walk = (node: PDFDict | undefined, depth: number) => {
    if (!node || seen.has(node) || depth > MAX_DEPTH || found.size >= MAX_NAMES) return;
    seen.add(node);
    const names = resolved(source, node.get(PDFName.of("Names")));
    for (let i = 0; names instanceof PDFArray && i + 1 < names.size() && found.size < MAX_NAMES; i += 2) {
      const name = nameOf(resolved(source, names.get(i)));
      if (name !== undefined && !found.has(name)) found.set(name, names.get(i + 1));
    }
    const kids = resolved(source, node.get(PDFName.of("Kids")));
    for (let i = 0; kids instanceof PDFArray && i < kids.size(); i++) walk(dictOf(source, kids.get(i)), depth + 1);
  };
  walk(dictOf(source, dictOf(source, source.catalog.get(PDFName.of("Names")))?.get(PDFName.of("Dests"))), 0);
  const old = dictOf(source, source.catalog.get(PDFName.of("Dests")));
  for (const [key, value] of old?.entries() ?? []) if (found.size < MAX_NAMES && !found.has(key.decodeText())) found.set(key.decodeText(), value);
  return found;
}

/**
 * A destination of `source` (an array, or a dictionary holding one as /D) as an explicit one in the
 * merged file: its page the copy of the page it names, its view as it is (/Fit when it names none);
 * undefined when the page was not taken or the destination is not one.
 */
function explicit(source: PDFDocument, dest: PDFObject | undefined, pages: PageMap, merged: PDFDocument): PDFArray | undefined {
  let value = resolved(source, dest);
  if (value instanceof PDFDict) value = resolved(source, value.get(PDFName.of("D")));
  if (!(value instanceof PDFArray) || value.size() === 0) return undefined;
  const page = value.get(0);
  const target = page instanceof PDFRef ? pages.get(page) : undefined;
  if (!target) return undefined;
  const array = merged.context.obj([target]);
  // The view: a name (/XYZ, /Fit…) and numbers or null, nothing that refers to the source.
  for (let i = 1; i < value.size() && i < 6; i++) {
    const part = resolved(source, value.get(i));
    array.push(part instanceof PDFName || part instanceof PDFNumber ? part : PDFNull);
  }
  if (!(array.get(1) instanceof PDFName)) return merged.context.obj([target, PDFName.of("Fit")]);
  return array;
}

/** A value, looked up when it is a reference. */
function resolved(doc: PDFDocument, value: PDFObject | undefined): PDFObject | undefined {
  return value instanceof PDFRef ? doc.context.lookup(value) : value;
}

function dictOf(doc: PDFDocument, value: PDFObject | undefined): PDFDict | undefined {
  const found = resolved(doc, value);
  return found instanceof PDFDict ? found : undefined;
}

/** The text of a name given as a string, a hex string or a name; undefined for anything else. */
function nameOf(value: PDFObject | undefined): string | undefined {
  if (value instanceof PDFString || value instanceof PDFHexString || value instanceof PDFName) return value.decodeText();
  return undefined;
}
