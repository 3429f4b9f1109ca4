import type { Doc } from "./doc.js";

// pdfkit writes an indirect object by converting its dictionary with PDFObject.convert: an array of parts
// per dictionary and per array, joined, a template string per entry, and for a text string a byte array
// there and back. A letter's 40 objects allocated ~70 KiB that way, and a stream's chunks were copied into
// one array before being written. Here each object is written as one string built by concatenation (the
// document's writes are batched, render/pdf-writes.ts, so it is flattened once with everything else) and a
// stream's bytes as they are. The bytes written are pdfkit's, byte for byte.

/** pdfkit's reference to an indirect object (internal, pdfkit 0.20). */
export interface PdfRef {
  id: number;
  gen: number;
  offset: number;
  data: Record<string, unknown>;
  buffer: Uint8Array[];
  compress: boolean;
  document: Writer;
  finalize(): void;
  end(chunk?: Uint8Array): void;
}

/** The parts of pdfkit's document an object's writing uses. */
interface Writer {
  _offset: number;
  _security?: unknown;
  _write(data: string | Uint8Array): void;
  _refEnd(ref: PdfRef): void;
}

/** pdfkit's name and number trees (PDFTree): sorted keys, written with their values. */
interface Tree {
  _items: Record<string, unknown>;
  limits: boolean;
  _compareKeys(a: string, b: string): number;
  _keysName(): string;
  _dataForKey(key: string): unknown;
}

/** pdfkit's classes a dictionary can hold, which it does not export: found from a document's own objects. */
interface Classes {
  reference: abstract new () => object;
  tree: abstract new () => Tree;
}
let classes: Classes | undefined;

/** A value `serialize` does not know (a spot colour, say): the object is then left to pdfkit. */
class Unsupported extends Error {}

/**
 * Makes every indirect object `doc` writes from now on (and those its constructor made) be written by
 * `writeObject`. An encrypted document (not made here) keeps pdfkit's writing.
 */
export function leanObjects(doc: Doc): void {
  const target = doc as unknown as Writer & { ref(data?: Record<string, unknown>): PdfRef; _root: PdfRef; page: { dictionary: PdfRef; resources: PdfRef; content: PdfRef } | null };
  if (target._security) return;
  const root = target._root;
  const names = root.data.Names as PdfRef;
  classes ??= {
    reference: Object.getPrototypeOf(Object.getPrototypeOf(root)).constructor,
    tree: Object.getPrototypeOf(Object.getPrototypeOf(names.data.Dests)).constructor,
  };
  const ref = target.ref.bind(doc);
  target.ref = (data) => lean(ref(data));
  const made = [root, ...Object.values(root.data)];
  if (target.page) made.push(target.page.dictionary, target.page.resources, target.page.content);
  for (const value of made) if (value instanceof classes.reference) lean(value as PdfRef);
}

function lean(ref: PdfRef): PdfRef {
  ref.finalize = writeObject;
  return ref;
}

/** pdfkit's PDFReference.finalize, with its dictionary serialised by `serialize`; pdfkit's own for what that can't write. */
export function writeObject(this: PdfRef): void {
  // A stream pdfkit deflates keeps pdfkit's writing, so its bytes stay those of pdfkit's zlib call.
  if (this.compress && this.buffer.length > 0) return pdfkitFinalize(this);
  let length = 0;
  for (const chunk of this.buffer) length += chunk.length;
  if (this.buffer.length > 0) this.data.Length = length;
  let dictionary: string;
  try {
    dictionary = serialize(this.data);
  } catch (err) {
    if (err instanceof Unsupported) return pdfkitFinalize(this);
    throw err;
  }
  writeSerialised(this, dictionary);
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

/**
 * A value as PDFObject.convert writes it (unencrypted): a JavaScript string is a name, a String object a
 * text string, a plain object a dictionary. Throws `Unsupported` for a value of a class it doesn't know.
 */
export function serialize(value: unknown): string {
  switch (typeof value) {
    case "string":
      return `/${value}`;
    case "number":
      return number(value);
    case "object":
      break;
    default:
      return `${value as boolean | undefined}`;
  }
  if (value === null) return "null";
  if (value instanceof String) return textString(value.valueOf());
  if (value instanceof Uint8Array) return `<${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}>`;
  if (Array.isArray(value)) return array(value);
  if (value instanceof Date) return date(value);
  const known = classes;
  if (!known) throw new Unsupported();
  if (value instanceof known.tree) return tree(value as unknown as Tree);
  if (value instanceof known.reference) return String(value);
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw new Unsupported();
  return dictionary(value as Record<string, unknown>);
}

function number(n: number): string {
  if (n > -1e21 && n < 1e21) return String(Math.round(n * 1e6) / 1e6);
  throw new Error(`unsupported number: ${n}`);
}

function array(values: readonly unknown[]): string {
  let out = "[";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += " ";
    // pdfkit writes a hole or undefined as null.
    out += serialize(values[i] ?? null);
  }
  return `${out}]`;
}

function dictionary(entries: Record<string, unknown>): string {
  let out = "<<";
  for (const key in entries) {
    const value = entries[key];
    if (value !== undefined) out += `\n/${key} ${serialize(value)}`;
  }
  return `${out}\n>>`;
}

function tree(t: Tree): string {
  const keys = Object.keys(t._items).sort((a, b) => t._compareKeys(a, b));
  let out = "<<";
  if (t.limits && keys.length > 1) out += `\n  /Limits [${serialize(t._dataForKey(keys[0]!))} ${serialize(t._dataForKey(keys.at(-1)!))}]`;
  out += `\n  /${t._keysName()} [`;
  for (const key of keys) out += `\n    ${serialize(t._dataForKey(key))} ${serialize(t._items[key])}`;
  return `${out}\n]\n>>`;
}

/** pdfkit's escapes in a literal string (PDF 32000-1, 7.3.4.2). */
const ESCAPES: Readonly<Record<number, string>> = { 10: "\\n", 13: "\\r", 9: "\\t", 8: "\\b", 12: "\\f", 92: "\\\\", 40: "\\(", 41: "\\)" };
const NEEDS_ESCAPE = /[\n\r\t\b\f()\\]/;

/** A text string: as it is when ASCII, else UTF-16BE with a byte order mark, one character a byte. */
function textString(text: string): string {
  let ascii = true;
  for (let i = 0; i < text.length && ascii; i++) ascii = text.charCodeAt(i) <= 0x7f;
  if (ascii) return `(${NEEDS_ESCAPE.test(text) ? escapeAscii(text) : text})`;
  let out = "(\xfe\xff";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    out += byte(unit >> 8) + byte(unit & 0xff);
  }
  return `${out})`;
}

function escapeAscii(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) out += byte(text.charCodeAt(i));
  return out;
}

function byte(code: number): string {
  return ESCAPES[code] ?? String.fromCharCode(code);
}

const pad = (n: number, length: number) => `${"0".repeat(length)}${n}`.slice(-length);

function date(d: Date): string {
  return `(D:${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)}${pad(d.getUTCHours(), 2)}${pad(d.getUTCMinutes(), 2)}${pad(d.getUTCSeconds(), 2)}Z)`;
}
