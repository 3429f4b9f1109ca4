import type { Doc } from "./doc.js";
import { gatheringOf } from "./pdf-writes.js";
import type { PdfRef, Writer } from "./pdf-ref.js";
import { isReference, learnClasses, serialize, Unsupported, writeValue } from "./pdf-values.js";

// pdfkit writes an indirect object by converting its dictionary with PDFObject.convert: an array of parts
// per dictionary and per array, joined, a template string per entry, and for a text string a byte array
// there and back. A letter's 40 objects allocated ~70 KiB that way, and a stream's chunks were copied into
// one array before being written. Here an object's dictionary is written as bytes straight into the
// document's output (render/pdf-writes.ts, render/pdf-values.ts) and a stream's bytes as they are. The
// bytes written are pdfkit's, byte for byte.

/**
 * Makes every indirect object `doc` writes from now on (and those its constructor made) be written by
 * `writeObject`. An encrypted document (not made here) keeps pdfkit's writing.
 */
export function leanObjects(doc: Doc): void {
  const target = doc as unknown as Writer & { ref(data?: Record<string, unknown>): PdfRef; _root: PdfRef; page: { dictionary: PdfRef; resources: PdfRef; content: PdfRef } | null };
  if (target._security) return;
  const root = target._root;
  learnClasses(root);
  const ref = target.ref.bind(doc);
  target.ref = (data) => lean(ref(data));
  const made = [root, ...Object.values(root.data)];
  if (target.page) made.push(target.page.dictionary, target.page.resources, target.page.content);
  for (const value of made) if (isReference(value)) lean(value as PdfRef);
}

function lean(ref: PdfRef): PdfRef {
  ref.finalize = writeObject;
  return ref;
}

/** pdfkit's PDFReference.finalize, with its dictionary written by `writeValue`; pdfkit's own for what that can't write. */
export function writeObject(this: PdfRef): void {
  // A stream pdfkit deflates keeps pdfkit's writing, so its bytes stay those of pdfkit's zlib call.
  if (this.compress && this.buffer.length > 0) return pdfkitFinalize(this);
  // Indexed loops here: Maglev, which runs most of a render, allocates an iterator for each for…of.
  let length = 0;
  for (let i = 0; i < this.buffer.length; i++) length += this.buffer[i]!.length;
  if (this.buffer.length > 0) this.data.Length = length;
  const document = this.document;
  const gathering = gatheringOf(document as unknown as Doc);
  if (!gathering) {
    let dictionary: string;
    try {
      dictionary = serialize(this.data);
    } catch (err) {
      if (err instanceof Unsupported) return pdfkitFinalize(this);
      throw err;
    }
    return writeSerialised(this, dictionary);
  }
  this.offset = document._offset;
  // Straight into the document's output: `n 0 obj`, the dictionary and what follows it, as pdfkit writes them.
  const { writer } = gathering;
  const start = writer.length;
  writer.number(this.id);
  writer.byte(0x20);
  writer.number(this.gen);
  writer.text(" obj\n");
  try {
    writeValue(writer, this.data);
  } catch (err) {
    writer.length = start;
    if (err instanceof Unsupported) return pdfkitFinalize(this);
    throw err;
  }
  writer.text(this.buffer.length === 0 ? "\nendobj\n" : "\nstream\n");
  gathering.wrote(writer.length - start);
  if (this.buffer.length > 0) {
    for (let i = 0; i < this.buffer.length; i++) document._write(this.buffer[i]!);
    this.buffer = [];
    document._write("\nendstream\nendobj");
  }
  document._refEnd(this);
}

/**
 * Ends `ref` with `dictionary`, already serialised (a font's widths, kept across documents), in place of
 * its data; a stream's bytes written so far follow it.
 */
export function endSerialised(ref: PdfRef, dictionary: string): void {
  ref.finalize = function (this: PdfRef) {
    writeSerialised(this, dictionary);
  };
  ref.end();
}

function writeSerialised(ref: PdfRef, dictionary: string): void {
  const writer = ref.document;
  ref.offset = writer._offset;
  // Each string written is followed by a newline, so this is pdfkit's sequence of writes, fewer of them.
  if (ref.buffer.length === 0) {
    writer._write(`${ref.id} ${ref.gen} obj\n${dictionary}\nendobj`);
  } else {
    writer._write(`${ref.id} ${ref.gen} obj\n${dictionary}\nstream`);
    for (const chunk of ref.buffer) writer._write(chunk);
    ref.buffer = [];
    writer._write("\nendstream\nendobj");
  }
  writer._refEnd(ref);
}

function pdfkitFinalize(ref: PdfRef): void {
  Object.getPrototypeOf(ref).finalize.call(ref);
}
