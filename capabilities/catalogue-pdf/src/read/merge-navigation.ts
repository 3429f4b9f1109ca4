import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNull, PDFNumber, type PDFObject, type PDFPage, PDFRef, PDFString } from "pdf-lib";

// What merge_pdfs keeps of each file's navigation, which pdf-lib's copyPages leaves behind: links to named
// destinations (a contents page's entries) are pointed at the copied pages, and the merged file gets an
// outline, a bookmark per file (its title, else its file name) with the file's own bookmarks under it.
// Everything is read with bounds, each object once: a file is anyone's (a name tree or outline may loop).

/** The entries of a name tree or an outline read at most (hostile files can claim millions). */
const MAX_ENTRIES = 10_000;
/** Nesting read at most, in a name tree or an outline. */
const MAX_DEPTH = 32;

/** One file's pages in the merged file: its page objects (by reference) as copied, each's first copy. */
export type PageMap = ReadonlyMap<PDFRef, PDFRef>;

/** A bookmark to write: its title, the merged page and view it goes to, its own bookmarks. */
export interface Bookmark {
  title: string;
  target: PDFArray;
  children: Bookmark[];
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

/**
 * Points the copied pages' links to a named destination of their file at the page it names, as an explicit
 * destination in the merged file; a link to a page not taken loses its action (it would go nowhere).
 */
export function relinkNamedDestinations(source: PDFDocument, merged: PDFDocument, copied: readonly PDFPage[], pages: PageMap): void {
  let named: Map<string, PDFObject> | undefined;
  for (const page of copied) {
    const annots = page.node.lookupMaybe(PDFName.of("Annots"), PDFArray);
    if (!annots) continue;
    for (let i = 0; i < annots.size() && i < MAX_ENTRIES; i++) {
      const annot = merged.context.lookupMaybe(annots.get(i), PDFDict);
      if (!annot) continue;
      const action = annot.lookupMaybe(PDFName.of("A"), PDFDict);
      const holder = action && action.get(PDFName.of("S")) === PDFName.of("GoTo") ? action : annot;
      const key = holder === annot ? "Dest" : "D";
      const name = nameOf(holder.get(PDFName.of(key)));
      if (name === undefined) continue;
      named ??= namedDestinations(source);
      const target = explicit(source, named.get(name), pages, merged);
      if (target) holder.set(PDFName.of(key), target);
      else if (holder === action) annot.delete(PDFName.of("A"));
      else annot.delete(PDFName.of("Dest"));
    }
  }
}

/** The bookmarks of `source`, their destinations in the merged file (those to pages not taken left out). */
export function bookmarksOf(source: PDFDocument, merged: PDFDocument, pages: PageMap): Bookmark[] {
  const outlines = source.catalog.lookupMaybe(PDFName.of("Outlines"), PDFDict);
  if (!outlines) return [];
  let named: Map<string, PDFObject> | undefined;
  const seen = new Set<PDFDict>();
  const read = (first: PDFObject | undefined, depth: number): Bookmark[] => {
    const items: Bookmark[] = [];
    for (let item = lookupDict(source, first); item && !seen.has(item) && seen.size < MAX_ENTRIES; item = lookupDict(source, item.get(PDFName.of("Next")))) {
      seen.add(item);
      const children = depth < MAX_DEPTH ? read(item.get(PDFName.of("First")), depth + 1) : [];
      const action = item.lookupMaybe(PDFName.of("A"), PDFDict);
      let dest = item.get(PDFName.of("Dest")) ?? (action?.get(PDFName.of("S")) === PDFName.of("GoTo") ? action.get(PDFName.of("D")) : undefined);
      const name = nameOf(dest);
      if (name !== undefined) dest = (named ??= namedDestinations(source)).get(name);
      const target = explicit(source, dest, pages, merged);
      // A bookmark to a page not taken goes, its own bookmarks (if any go somewhere) moving up in its place.
      if (target) items.push({ title: textOf(item.get(PDFName.of("Title"))), target, children });
      else items.push(...children);
    }
    return items;
  };
  return read(outlines.get(PDFName.of("First")), 1);
}

/** A file's own bookmark: its title (else its file name), to its first page taken, its bookmarks under it. */
export function fileBookmark(source: PDFDocument, merged: PDFDocument, first: PDFPage, filename: string, pages: PageMap): Bookmark {
  let title = "";
  try {
    title = source.getTitle()?.trim() ?? "";
  } catch {
    // A title that is no string: the file name then.
  }
  return { title: (title || filename).slice(0, 500), target: merged.context.obj([first.ref, PDFName.of("Fit")]), children: bookmarksOf(source, merged, pages) };
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
      dict.set(PDFName.of("Title"), PDFHexString.fromText(item.title));
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

/** A file's named destinations (its /Names /Dests tree, or the catalog's older /Dests dictionary), by name. */
function namedDestinations(source: PDFDocument): Map<string, PDFObject> {
  const found = new Map<string, PDFObject>();
  const seen = new Set<PDFDict>();
  const walk = (node: PDFDict | undefined, depth: number) => {
    if (!node || seen.has(node) || depth > MAX_DEPTH || found.size >= MAX_ENTRIES) return;
    seen.add(node);
    const names = node.lookupMaybe(PDFName.of("Names"), PDFArray);
    for (let i = 0; names && i + 1 < names.size() && found.size < MAX_ENTRIES; i += 2) {
      const name = nameOf(names.get(i));
      if (name !== undefined && !found.has(name)) found.set(name, names.get(i + 1));
    }
    const kids = node.lookupMaybe(PDFName.of("Kids"), PDFArray);
    for (let i = 0; kids && i < kids.size(); i++) walk(lookupDict(source, kids.get(i)), depth + 1);
  };
  walk(source.catalog.lookupMaybe(PDFName.of("Names"), PDFDict)?.lookupMaybe(PDFName.of("Dests"), PDFDict), 0);
  const old = source.catalog.lookupMaybe(PDFName.of("Dests"), PDFDict);
  for (const [key, value] of old?.entries() ?? []) if (found.size < MAX_ENTRIES && !found.has(key.decodeText())) found.set(key.decodeText(), value);
  return found;
}

/**
 * A destination of `source` (an array, or a dictionary holding one as /D) as an explicit one in the
 * merged file: its page the copy of the page it names, its view as it is; undefined when the page was
 * not taken or the destination is not one.
 */
function explicit(source: PDFDocument, dest: PDFObject | undefined, pages: PageMap, merged: PDFDocument): PDFArray | undefined {
  let value = dest instanceof PDFRef ? source.context.lookup(dest) : dest;
  if (value instanceof PDFDict) value = value.get(PDFName.of("D"));
  if (value instanceof PDFRef) value = source.context.lookup(value);
  if (!(value instanceof PDFArray) || value.size() === 0) return undefined;
  const page = value.get(0);
  const target = page instanceof PDFRef ? pages.get(page) : undefined;
  if (!target) return undefined;
  const array = merged.context.obj([target]);
  // The view: a name (/XYZ, /Fit…) and numbers or null, nothing that refers to the source.
  for (let i = 1; i < value.size() && i < 6; i++) {
    const part = value.get(i);
    array.push(part instanceof PDFName || part instanceof PDFNumber ? part : PDFNull);
  }
  return array;
}

/** The text of a name given as a string, a hex string or a name; undefined for anything else. */
function nameOf(value: PDFObject | undefined): string | undefined {
  if (value instanceof PDFString || value instanceof PDFHexString || value instanceof PDFName) return value.decodeText();
  return undefined;
}

/** A bookmark's title as text (a title that is missing or no string gives an empty one). */
function textOf(value: PDFObject | undefined): string {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText().slice(0, 500) : "";
}

function lookupDict(source: PDFDocument, value: PDFObject | undefined): PDFDict | undefined {
  if (value === undefined) return undefined;
  const found = value instanceof PDFRef ? source.context.lookup(value) : value;
  return found instanceof PDFDict ? found : undefined;
}
