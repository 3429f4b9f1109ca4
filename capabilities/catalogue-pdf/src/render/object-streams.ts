import type { Doc } from "./doc.js";
import { streamBytes } from "./deflate.js";

// pdfkit writes every object on its own, uncompressed unless it is a stream, with a classic cross-reference
// table. A tagged table-heavy report has one structure element per cell: 2,800 small dictionaries, about
// 230 KB of a 385 KB file, each written as four chunks. Dictionaries handed to `compact` are kept in
// deflated object streams instead (PDF 1.5, 7.5.7), which need a cross-reference stream (7.5.8) in place
// of the table; pdfkit's own writing of everything else is kept.

/** pdfkit's reference to an indirect object (what a structure element's `dictionary` is). */
interface Ref {
  id: number;
  offset: number;
  buffer: unknown[];
  document: unknown;
  finalize(): void;
}

/** The parts of pdfkit's document the writer uses (internal, pdfkit 0.20). */
interface Writer {
  _offset: number;
  _offsets: (number | null)[];
  _write(data: string | Uint8Array): void;
  _refEnd(ref: Ref): void;
  _finalize(): void;
  _root: object;
  _info: object;
  _id: Uint8Array;
  _security?: unknown;
  push(chunk: Uint8Array | null): boolean;
}

/** Objects per object stream: a reader inflates a whole stream to read one of them. */
const PER_STREAM = 256;

/** Where an object kept in an object stream is: the stream's object number and its index there. */
interface Stored {
  stream: number;
  index: number;
}

/**
 * Sets `doc` up to keep the dictionaries given to the returned function in object streams, and to end
 * with a cross-reference stream. Encrypted documents (not made here) would keep pdfkit's writing.
 */
export function objectStreams(doc: Doc): (ref: unknown) => void {
  const writer = doc as unknown as Writer;
  if (writer._security) return () => undefined;
  const pending: { id: number; body: string }[] = [];
  const stored = new Map<number, Stored>();

  const flush = () => {
    if (pending.length === 0) return;
    const id = writer._offsets.push(null);
    let header = "";
    let body = "";
    pending.forEach((object, index) => {
      header += `${object.id} ${body.length} `;
      body += `${object.body}\n`;
      stored.set(object.id, { stream: id, index });
    });
    const { data, filter } = streamBytes(Buffer.from(`${header}\n${body}`, "latin1"));
    writer._offsets[id - 1] = writer._offset;
    writer._write(`${id} 0 obj`);
    writer._write(`<< /Type /ObjStm /N ${pending.length} /First ${header.length + 1}${filter} /Length ${data.length} >>`);
    writer._write("stream");
    writer._write(data);
    writer._write("\nendstream\nendobj");
    pending.length = 0;
  };

  writer._finalize = () => {
    flush();
    writeXrefStream(writer, stored);
  };

  return (value) => {
    const ref = value as Ref;
    // pdfkit's finalize writes `n 0 obj`, the dictionary and `endobj` through `document`: a stand-in keeps
    // the dictionary, then hands the reference back to the document as written.
    const chunks: string[] = [];
    ref.document = {
      _offset: 0,
      _security: null,
      _write: (chunk: string | Uint8Array) => chunks.push(String(chunk)),
      _refEnd: (done: Ref) => {
        if (done.buffer.length > 0) throw new Error("a stream can't be kept in an object stream");
        pending.push({ id: done.id, body: chunks[1]! });
        if (pending.length >= PER_STREAM) flush();
        writer._refEnd(done);
      },
    };
  };
}

/** The cross-reference stream and trailer (fields 1, 4 and 2 bytes wide: type, offset or stream, generation or index). */
function writeXrefStream(writer: Writer, stored: ReadonlyMap<number, Stored>): void {
  const id = writer._offsets.push(null);
  const offset = writer._offset;
  writer._offsets[id - 1] = offset;
  const size = writer._offsets.length + 1;
  const table = Buffer.alloc(size * 7);
  table.writeUInt8(0, 0);
  table.writeUInt16BE(0xffff, 5);
  writer._offsets.forEach((at, i) => {
    const entry = (i + 1) * 7;
    const kept = stored.get(i + 1);
    if (kept) {
      table.writeUInt8(2, entry);
      table.writeUInt32BE(kept.stream, entry + 1);
      table.writeUInt16BE(kept.index, entry + 5);
    } else if (at !== null) {
      table.writeUInt8(1, entry);
      table.writeUInt32BE(at, entry + 1);
    }
  });
  const { data, filter } = streamBytes(table);
  const hex = Buffer.from(writer._id).toString("hex");
  writer._write(`${id} 0 obj`);
  writer._write(`<< /Type /XRef /Size ${size} /W [1 4 2] /Root ${String(writer._root)} /Info ${String(writer._info)} /ID [<${hex}> <${hex}>]${filter} /Length ${data.length} >>`);
  writer._write("stream");
  writer._write(data);
  writer._write("\nendstream\nendobj");
  writer._write("startxref");
  writer._write(`${offset}`);
  writer._write("%%EOF");
  writer.push(null);
}
