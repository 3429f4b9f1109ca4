import { deflate } from "./deflate.js";
import { ByteWriter } from "./byte-writer.js";
import type { Doc } from "./doc.js";

// pdfkit turns every operator it adds to a page (a colour, a text position, a marked-content tag: dozens
// per table cell) into a typed array of its own, byte by byte in JavaScript, and every object it writes
// into several more, each pushed through the output stream. In a table-heavy report that was a tenth of
// the time and much of the garbage. Here a page's operators are kept as strings and converted once, when
// the page is written, and the document's output is gathered as bytes and goes out in chunks of 64 KiB.

/** The parts of pdfkit's document and page these writes replace (internal, pdfkit 0.20). */
interface Internals {
  page: PageInternals;
  _offset: number;
  _write(data: string | Uint8Array): void;
  push(chunk: Uint8Array | null): boolean;
}
interface PageInternals {
  content: { write(chunk: string | Uint8Array): void; finalize(): void; compress: boolean; buffer: Uint8Array[]; data: Record<string, unknown> };
}

/** Bytes gathered before they are handed to the output stream. */
const CHUNK = 64 * 1024;

/**
 * A document's output being gathered, for writing an object's bytes straight into it (render/pdf-objects.ts):
 * write to `writer`, then report how many bytes with `wrote`.
 */
export interface Gathering {
  writer: ByteWriter;
  wrote(bytes: number): void;
}
const gatherings = new WeakMap<Doc, Gathering>();

/** `doc`'s output being gathered, if `batchWrites` set it up. */
export function gatheringOf(doc: Doc): Gathering | undefined {
  return gatherings.get(doc);
}

/** Sets up `doc`'s pages (this one and every later one) and its output as described above. */
export function batchWrites(doc: Doc): void {
  const internals = doc as unknown as Internals;
  // What is written, one byte a character as pdfkit converts it, until a chunk's worth is handed on.
  // Starts small (a letter is ~13 KiB) and grows to a chunk.
  const writer = new ByteWriter(16 * 1024);
  const push = internals.push.bind(doc);
  const flush = () => {
    if (writer.length > 0) push(writer.take());
  };
  const wrote = (bytes: number) => {
    internals._offset += bytes;
    if (writer.length >= CHUNK) flush();
  };
  gatherings.set(doc, { writer, wrote });
  internals._write = (data) => {
    if (typeof data === "string") {
      writer.text(data);
      writer.byte(0x0a);
      wrote(data.length + 1);
      return;
    }
    // A large stream (an image) goes out as it is, not copied into a chunk.
    if (data.length >= CHUNK) {
      flush();
      internals._offset += data.length;
      push(data);
      return;
    }
    writer.append(data);
    wrote(data.length);
  };
  internals.push = (chunk) => {
    if (chunk === null) flush();
    return push(chunk);
  };
  batchContent(internals.page);
  doc.on("pageAdded", () => batchContent(internals.page));
}

/**
 * Gathers a page's operators as bytes until the page is written (pdfkit writes a line per operator, each
 * into an array of its own), then deflates the page's stream with tables sized to it (render/deflate.ts)
 * where pdfkit would deflate it.
 */
function batchContent(page: PageInternals): void {
  const { content } = page;
  const write = content.write.bind(content);
  const finalize = content.finalize.bind(content);
  const lines = new ByteWriter(8192);
  const flush = () => {
    if (lines.length > 0) write(lines.take());
  };
  content.write = (chunk) => {
    if (typeof chunk === "string") {
      lines.text(chunk);
      lines.byte(0x0a);
      return;
    }
    flush();
    write(chunk);
  };
  content.finalize = () => {
    flush();
    // pdfkit's stream holds the page's bytes (its first operator was written before this wrapper).
    if (content.compress && content.buffer.length > 0) {
      content.buffer = [deflate(content.buffer.length === 1 ? content.buffer[0]! : Buffer.concat(content.buffer))];
      content.compress = false;
      content.data.Filter = "FlateDecode";
    }
    finalize();
  };
}
