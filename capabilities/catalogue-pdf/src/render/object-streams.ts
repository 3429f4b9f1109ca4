import type { Doc } from "./doc.js";
import { streamBytes } from "./deflate.js";
import { ByteWriter } from "./byte-writer.js";
import { writeObject } from "./pdf-objects.js";
import type { PdfRef } from "./pdf-ref.js";
import { writeValue } from "./pdf-values.js";

// pdfkit writes every object on its own, uncompressed unless it is a stream, with a classic cross-reference
// table. A tagged table-heavy report has one structure element per cell: 2,800 small dictionaries, about
// 230 KB of a 385 KB file, each written as four chunks. Dictionaries handed to `compact` are kept in
// deflated object streams instead (PDF 1.5, 7.5.7), which need a cross-reference stream (7.5.8) in place
// of the table; pdfkit's own writing of everything else is kept.

/** The parts of pdfkit's document the writer uses (internal, pdfkit 0.20). */
interface Writer {
  _offset: number;
  _offsets: (number | null)[];
  _write(data: string | Uint8Array): void;
  _refEnd(ref: PdfRef): void;
  _finalize(): void;
  _root: object;
  _info: object;
  _id: Uint8Array;
  _security?: unknown;
  push(chunk: Uint8Array | null): boolean;
}

/** Objects per object stream: a reader inflates a whole stream to read one of them. */
const PER_STREAM = 256;

/**
 * Where the objects kept in object streams are, by object number: the stream's object number times
 * PER_STREAM plus the object's index there, plus one (0: not kept). Numbers, not a map entry each of a
 * report's 2,860 elements.
 */
class Stored {
  #at = new Int32Array(1024);

  set(object: number, stream: number, index: number): void {
    if (object >= this.#at.length) {
      const grown = new Int32Array(Math.max(object + 1, this.#at.length * 2));
      grown.set(this.#at);
      this.#at = grown;
    }
    this.#at[object] = stream * PER_STREAM + index + 1;
  }

  /** The object stream holding `object`, or undefined if it isn't kept. */
  stream(object: number): number | undefined {
    const at = this.#at[object] ?? 0;
    return at === 0 ? undefined : Math.floor((at - 1) / PER_STREAM);
  }

  /** `object`'s index in its stream (one that is kept). */
  index(object: number): number {
    return (this.#at[object]! - 1) % PER_STREAM;
  }
}

/**
 * Sets `doc` up to keep the dictionaries given to the returned function in object streams, and to end
 * with a cross-reference stream. Encrypted documents (not made here) would keep pdfkit's writing.
 */
export function objectStreams(doc: Doc): (ref: unknown) => void {
  const writer = doc as unknown as Writer;
  if (writer._security) return () => undefined;
  // The objects of the next stream: their numbers, where each starts in `body`, and their bytes.
  const ids: number[] = [];
  const starts: number[] = [];
  const body = new ByteWriter();
  const header = new ByteWriter(1024);
  const stored = new Stored();

  const flush = () => {
    if (ids.length === 0) return;
    const id = writer._offsets.push(null);
    header.length = 0;
    ids.forEach((object, index) => {
      header.number(object);
      header.byte(0x20);
      header.number(starts[index]!);
      header.byte(0x20);
      stored.set(object, id, index);
    });
    header.byte(0x0a);
    const { data, filter } = streamBytes(Buffer.concat([header.bytes.subarray(0, header.length), body.bytes.subarray(0, body.length)]));
    writer._offsets[id - 1] = writer._offset;
    writer._write(`${id} 0 obj`);
    writer._write(`<< /Type /ObjStm /N ${ids.length} /First ${header.length}${filter} /Length ${data.length} >>`);
    writer._write("stream");
    writer._write(data);
    writer._write("\nendstream\nendobj");
    ids.length = 0;
    starts.length = 0;
    body.length = 0;
  };

  writer._finalize = () => {
    flush();
    writeXrefStream(writer, stored);
  };

  // Written in place of pdfkit's finalize for each dictionary kept (one function for all of them).
  function keep(this: PdfRef): void {
    if (this.buffer.length > 0) throw new Error("a stream can't be kept in an object stream");
    const start = body.length;
    try {
      writeValue(body, this.data);
    } catch {
      // A value only pdfkit knows how to write: the object is written on its own, as pdfkit would.
      body.length = start;
      return writeObject.call(this);
    }
    body.byte(0x0a);
    ids.push(this.id);
    starts.push(start);
    if (ids.length >= PER_STREAM) flush();
    writer._refEnd(this);
  }
  return (ref) => {
    (ref as PdfRef).finalize = keep;
  };
}

/** The cross-reference stream and trailer (fields 1, 4 and 2 bytes wide: type, offset or stream, generation or index). */
function writeXrefStream(writer: Writer, stored: Stored): void {
  const id = writer._offsets.push(null);
  const offset = writer._offset;
  writer._offsets[id - 1] = offset;
  const size = writer._offsets.length + 1;
  const table = Buffer.alloc(size * 7);
  // Written byte by byte: Buffer's writeUInt32BE and friends check their arguments and allocate doing so.
  table[5] = 0xff;
  table[6] = 0xff;
  writer._offsets.forEach((at, i) => {
    const entry = (i + 1) * 7;
    const stream = stored.stream(i + 1);
    if (stream !== undefined) {
      table[entry] = 2;
      writeBE(table, entry + 1, stream, 4);
      writeBE(table, entry + 5, stored.index(i + 1), 2);
    } else if (at !== null) {
      table[entry] = 1;
      writeBE(table, entry + 1, at, 4);
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

/** `value` as `width` bytes, big-endian, at `at`. */
function writeBE(table: Buffer, at: number, value: number, width: number): void {
  for (let i = width - 1; i >= 0; i--) {
    table[at + i] = value & 0xff;
    value = Math.floor(value / 256);
  }
}
