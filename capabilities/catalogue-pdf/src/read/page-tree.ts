import { ToolError } from "@selu-catalogue/kit";
import type { PDFDict, PDFDocument, PDFObject } from "pdf-lib";
import { PDF_LIMITS } from "../limits.js";
import type { PdfInput } from "./pdf-input.js";
import { librarySaid } from "./damaged.js";

type PdfLib = typeof import("pdf-lib");

/**
 * Counts the pages of a PDF by walking its page tree once, each node at most once, and stops as soon as
 * the count passes `maxPages`, before anything is built from it (issue 10 item 2: a 1.2 KB PDF whose tree
 * lists the same child ten times on seven levels has 10⁷ pages for pdf-lib, which walks it without
 * remembering nodes and then built an array of every page number). A tree that reaches a node twice
 * is refused as damaged; after this check pdf-lib's own walk over the tree is bounded by the count.
 * The walk mirrors pdf-lib's: /Pages nodes are entered, /Page leaves counted, anything else skipped.
 */
export function countPages(pdfLib: PdfLib, doc: PDFDocument, input: PdfInput, maxPages: number, tooMany: (count: number) => Error): number {
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
  const stack: { node: PDFDict; depth: number }[] = [{ node: root, depth: 0 }];
  let pages = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > PDF_LIMITS.maxPageTreeDepth) throw damaged(`its page tree is nested more than ${PDF_LIMITS.maxPageTreeDepth} levels deep`);
    const kids = node.lookup(PDFName.of("Kids"));
    if (!(kids instanceof PDFArray)) continue;
    for (let i = 0; i < kids.size(); i++) {
      const kid = doc.context.lookup(kids.get(i));
      if (kid === undefined) continue;
      if (seen.has(kid)) throw damaged("its page tree lists the same page node more than once");
      seen.add(kid);
      if (kid instanceof PDFPageTree) stack.push({ node: kid, depth: depth + 1 });
      else if (kid instanceof PDFPageLeaf && ++pages > maxPages) throw tooMany(pages);
    }
  }
  return pages;
}
