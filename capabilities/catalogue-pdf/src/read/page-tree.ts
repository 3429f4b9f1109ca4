import { ToolError } from "@selu-catalogue/kit";
import type { PDFDict, PDFDocument, PDFObject } from "pdf-lib";
import { PDF_LIMITS } from "../limits.js";
import type { PdfInput } from "./pdf-input.js";
import { librarySaid } from "./damaged.js";

type PdfLib = typeof import("pdf-lib");

/** A file's pages as its page tree lists them: how many, and which of them (0-based) can't be read. */
export interface PageSlots {
  pages: number;
  /** Pages whose object is damaged or missing: numbered as a viewer numbers them, never copied or read. */
  damaged: number[];
}

/**
 * Counts the pages of a PDF by walking its page tree once, each node at most once, and stops as soon as
 * the count passes `maxPages`, before anything is built from it (issue 10 item 2: a 1.2 KB PDF whose tree
 * lists the same child ten times on seven levels has 10⁷ pages for pdf-lib, which walks it without
 * remembering nodes and then built an array of every page number). A tree that reaches a node twice
 * is refused as damaged; after this check pdf-lib's own walk over the tree is bounded by the count.
 * The walk goes in order, as pdf-lib's: /Pages nodes are entered, /Page leaves counted, and a kid that is
 * neither (an object that can't be parsed, or is missing) is a damaged page in its place, which pdf-lib
 * leaves out of its pages: counted, so pages keep the numbers a viewer gives them, and said.
 */
export function countPages(pdfLib: PdfLib, doc: PDFDocument, input: PdfInput, maxPages: number, tooMany: (count: number) => Error): PageSlots {
  const { PDFArray, PDFName, PDFPageLeaf, PDFPageTree } = pdfLib;
  const damaged = (why: string) => new ToolError(`${input.field} (${input.filename}): the PDF is damaged and can't be read (${why})`);
  let root: PDFDict;
  try {
    root = doc.catalog.Pages();
  } catch (err) {
    const said = librarySaid(err);
    throw damaged(`it has no page tree${said ? `: ${said}` : ""}`);
  }
  const seen = new Set<PDFObject>([root]);
  const kidsOf = (node: PDFDict) => {
    const kids = node.lookup(PDFName.of("Kids"));
    return kids instanceof PDFArray ? kids : undefined;
  };
  const stack: { kids: ReturnType<typeof kidsOf>; next: number }[] = [{ kids: kidsOf(root), next: 0 }];
  const slots: PageSlots = { pages: 0, damaged: [] };
  while (stack.length > 0) {
    const top = stack.at(-1)!;
    if (!top.kids || top.next >= top.kids.size()) {
      stack.pop();
      continue;
    }
    const entry = top.kids.get(top.next++);
    const kid = doc.context.lookup(entry);
    if (kid !== undefined && seen.has(kid)) throw damaged("its page tree lists the same page node more than once");
    if (kid !== undefined) seen.add(kid);
    if (kid instanceof PDFPageTree) {
      if (stack.length > PDF_LIMITS.maxPageTreeDepth) throw damaged(`its page tree is nested more than ${PDF_LIMITS.maxPageTreeDepth} levels deep`);
      stack.push({ kids: kidsOf(kid), next: 0 });
      continue;
    }
    // A null entry stands for nothing; anything else not a page (a missing or unparsable object) is one that can't be read.
    if (kid === pdfLib.PDFNull) continue;
    if (++slots.pages > maxPages) throw tooMany(slots.pages);
    if (!(kid instanceof PDFPageLeaf)) slots.damaged.push(slots.pages - 1);
  }
  return slots;
}

/** "page 2 is", "pages 2, 5 and 7 are" (1-based). */
export function pagesNamed(pages: readonly number[]): string {
  const numbers = pages.map((page) => String(page + 1));
  if (numbers.length === 1) return `page ${numbers[0]} is`;
  const shown = numbers.length > 10 ? [...numbers.slice(0, 10), `${numbers.length - 10} more`] : numbers;
  return `pages ${shown.slice(0, -1).join(", ")} and ${shown.at(-1)} are`;
}

/** The note for pages of `input` left out because they are damaged (0-based), with what was said of them. */
export function pagesLeftOut(input: PdfInput, pages: readonly number[], why?: string): string {
  return `${input.field} (${input.filename}): ${pagesNamed(pages)} damaged and can't be read${why ? ` (${why.slice(0, 200)})` : ""}, so ${pages.length === 1 ? "it was" : "they were"} left out`;
}
