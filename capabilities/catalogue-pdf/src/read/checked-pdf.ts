import type { PDFDocument, PDFRawStream } from "pdf-lib";
import { censusStreams, objectStreamBudget } from "./stream-budget.js";
import { countPages } from "./page-tree.js";
import { encryptedError, type PdfInput } from "./pdf-input.js";
import { damagedIfThrows } from "./damaged.js";
import { CannotDecrypt, decryptPdf } from "./decrypt.js";

/** A PDF whose streams, objects and page tree were checked: safe to hand to pdf.js or pdf-lib. */
export interface CheckedPdf {
  /** The file parsed by pdf-lib (its object streams were measured before it inflated them). */
  doc: PDFDocument;
  /** Pages counted by walking the tree, each node once, damaged ones included (as a viewer numbers them). */
  pages: number;
  /** The pages (0-based) whose object is damaged or missing: pdf-lib leaves them out of its pages. */
  damaged: number[];
  /** Its objects, counted on the raw bytes (object streams' included). */
  objects: number;
  /** The file's bytes: decrypted when it was encrypted and opens without a password. */
  bytes: Buffer;
}

/** At most how many objects a file may have here, and the error past that (a merge's budget left). */
export interface ObjectRoom {
  objects: number;
  tooMany: (objects: number) => Error;
}

/**
 * Every PDF this capability reads goes through here first (issue 10 item 2): the raw streams are measured
 * against the decode limits, then pdf-lib parses the file and the page tree is walked with a visited set,
 * stopping at `maxPages` (`tooMany` gives the error) before anything is built from the count. An
 * encrypted file that opens without a password is decrypted first (read/decrypt.ts) and checked as the
 * plain file it is; one that needs a password is refused with `encryptedAction` in the message.
 */
export async function checkPdf(input: PdfInput, signal: AbortSignal, maxPages: number, tooMany: (count: number) => Error, encryptedAction: string, room?: ObjectRoom): Promise<CheckedPdf> {
  let { objects } = await censusStreams(input, signal);
  if (room && objects > room.objects) throw room.tooMany(objects);
  signal.throwIfAborted();
  // Loaded on the first read only: a process that only creates PDFs never holds it.
  const pdfLib = await import("pdf-lib");
  let bytes = input.bytes;
  if (bytes.includes("/Encrypt")) {
    const budget = objectStreamBudget(input);
    const measure = (stream: PDFRawStream) => budget(Buffer.from(stream.contents), filterNames(pdfLib, stream));
    const plain = await decryptPdf(pdfLib, bytes, measure).catch((err: unknown) => {
      if (err instanceof CannotDecrypt) throw encryptedError(input, encryptedAction, err);
      return damagedIfThrows(input, () => {
        throw err;
      });
    });
    if (plain) {
      bytes = Buffer.from(plain.buffer, plain.byteOffset, plain.byteLength);
      // The plain file's streams measured as any file's (the census of the encrypted one measured noise).
      ({ objects } = await censusStreams({ ...input, bytes }, signal));
      if (room && objects > room.objects) throw room.tooMany(objects);
    }
  }
  // Loaded even when encrypted, so that encryption is reported as such rather than as damage.
  const doc = await pdfLib.PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false }).catch((err: unknown) =>
    damagedIfThrows(input, () => {
      throw err;
    }),
  );
  if (doc.isEncrypted) throw encryptedError(input, encryptedAction);
  const { pages, damaged } = damagedIfThrows(input, () => countPages(pdfLib, doc, input, maxPages, tooMany));
  return { doc, pages, damaged, objects, bytes };
}

/** A stream's filter names in order (a name, or an array of them; anything else reads as none). */
function filterNames(pdfLib: typeof import("pdf-lib"), stream: PDFRawStream): string[] {
  const filter = stream.dict.lookup(pdfLib.PDFName.of("Filter"));
  if (filter instanceof pdfLib.PDFName) return [filter.decodeText()];
  if (filter instanceof pdfLib.PDFArray) return filter.asArray().flatMap((entry) => (entry instanceof pdfLib.PDFName ? [entry.decodeText()] : []));
  return [];
}
