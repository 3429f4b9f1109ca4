import type { PDFDocument } from "pdf-lib";
import { censusStreams } from "./stream-budget.js";
import { countPages } from "./page-tree.js";
import { encryptedError, type PdfInput } from "./pdf-input.js";
import { damagedIfThrows } from "./damaged.js";

/** A PDF whose streams, objects and page tree were checked: safe to hand to pdf.js or pdf-lib. */
export interface CheckedPdf {
  /** The file parsed by pdf-lib (its object streams were measured before it inflated them). */
  doc: PDFDocument;
  /** Pages counted by walking the tree, each node once. */
  pages: number;
  /** Its objects, counted on the raw bytes (object streams' included). */
  objects: number;
}

/** At most how many objects a file may have here, and the error past that (a merge's budget left). */
export interface ObjectRoom {
  objects: number;
  tooMany: (objects: number) => Error;
}

/**
 * Every PDF this capability reads goes through here first (issue 10 item 2): the raw streams are measured
 * against the decode limits, then pdf-lib parses the file and the page tree is walked with a visited set,
 * stopping at `maxPages` (`tooMany` gives the error) before anything is built from the count. Encrypted
 * files are refused with `encryptedAction` in the message: their streams can't be measured unread.
 */
export async function checkPdf(input: PdfInput, signal: AbortSignal, maxPages: number, tooMany: (count: number) => Error, encryptedAction: string, room?: ObjectRoom): Promise<CheckedPdf> {
  const { objects } = await censusStreams(input, signal);
  if (room && objects > room.objects) throw room.tooMany(objects);
  signal.throwIfAborted();
  // Loaded on the first read only: a process that only creates PDFs never holds it.
  const pdfLib = await import("pdf-lib");
  // Loaded even when encrypted, so that encryption is reported as such rather than as damage.
  const doc = await pdfLib.PDFDocument.load(input.bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false }).catch((err: unknown) =>
    damagedIfThrows(input, () => {
      throw err;
    }),
  );
  if (doc.isEncrypted) throw encryptedError(input, encryptedAction);
  const pages = damagedIfThrows(input, () => countPages(pdfLib, doc, input, maxPages, tooMany));
  return { doc, pages, objects };
}
