import { deflate } from "./deflate.js";
import type { Doc } from "./doc.js";

// pdfkit turns every operator it adds to a page (a colour, a text position, a marked-content tag: dozens
// per table cell) into a typed array of its own, byte by byte in JavaScript, and every object it writes
// into several more, each pushed through the output stream. In a table-heavy report that was a tenth of
// the time and much of the garbage. Here a page's operators are kept as strings and converted once, when
// the page is written, and the document's output goes out in chunks of 64 KiB, converted natively.

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

/** Sets up `doc`'s pages (this one and every later one) and its output as described above. */
export function batchWrites(doc: Doc): void {
  const internals = doc as unknown as Internals;
  let chunks: Uint8Array[] = [];
  // Lines written since the last bytes, converted together (one byte a character, as pdfkit converts them).
  let text = "";
  let gathered = 0;
  const push = internals.push.bind(doc);
  const settleText = () => {
    if (text === "") return;
    chunks.push(Buffer.from(text, "latin1"));
    text = "";
  };
  const flush = () => {
    settleText();
    if (gathered === 0) return;
    push(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, gathered));
    chunks = [];
    gathered = 0;
  };
  internals._write = (data) => {
    if (typeof data === "string") {
      text += `${data}\n`;
      internals._offset += data.length + 1;
      gathered += data.length + 1;
      if (gathered >= CHUNK) flush();
      return;
    }
    internals._offset += data.length;
    // A large stream (an image) goes out as it is, not copied into a chunk.
    if (data.length >= CHUNK) {
      flush();
      push(data);
      return;
    }
    settleText();
    chunks.push(data);
    gathered += data.length;
    if (gathered >= CHUNK) flush();
  };
  internals.push = (chunk) => {
    if (chunk === null) flush();
    return push(chunk);
  };
  batchContent(internals.page);
  doc.on("pageAdded", () => batchContent(internals.page));
}

/**
 * Keeps a page's operators as strings until the page is written (pdfkit writes a line per operator), then
 * deflates the page's stream with tables sized to it (render/deflate.ts) where pdfkit would deflate it.
 */
function batchContent(page: PageInternals): void {
  const { content } = page;
  const write = content.write.bind(content);
  const finalize = content.finalize.bind(content);
  let lines: string[] = [];
  const flush = () => {
    if (lines.length === 0) return;
    lines.push("");
    write(Buffer.from(lines.join("\n"), "latin1"));
    lines = [];
  };
  content.write = (chunk) => {
    if (typeof chunk === "string") {
      lines.push(chunk);
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
