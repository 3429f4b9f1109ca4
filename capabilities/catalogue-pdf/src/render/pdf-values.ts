import { ByteWriter } from "./byte-writer.js";
import type { PdfRef } from "./pdf-ref.js";

// PDF values written as PDFObject.convert (pdfkit 0.20) writes them, byte for byte, but as bytes into a
// ByteWriter: no array of parts, template string or byte array per value (see render/pdf-objects.ts).

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

/** Learns pdfkit's reference and tree classes from a document's catalog (the same for every document). */
export function learnClasses(root: PdfRef): void {
  const names = root.data.Names as PdfRef;
  classes ??= {
    reference: Object.getPrototypeOf(Object.getPrototypeOf(root)).constructor,
    tree: Object.getPrototypeOf(Object.getPrototypeOf(names.data.Dests)).constructor,
  };
}

/** Whether `value` is one of pdfkit's references (known once a document's classes are learnt). */
export function isReference(value: unknown): boolean {
  return classes !== undefined && value instanceof classes.reference;
}

/** A value `serialize` does not know (a spot colour, say): the object is then left to pdfkit. */
export class Unsupported extends Error {}

/** Where `serialize` writes; only ever used within one call, so one serves every document. */
const scratch = new ByteWriter();

/** A value as `writeValue` writes it, as a string. */
export function serialize(value: unknown): string {
  scratch.length = 0;
  writeValue(scratch, value);
  return scratch.toString();
}

/**
 * Writes a value as PDFObject.convert does (unencrypted): a JavaScript string is a name, a String object a
 * text string, a plain object a dictionary. Throws `Unsupported` for a value of a class it doesn't know
 * (having written part of it).
 */
export function writeValue(w: ByteWriter, value: unknown): void {
  switch (typeof value) {
    case "string":
      w.byte(0x2f);
      w.text(value);
      return;
    case "number":
      w.number(pdfNumber(value));
      return;
    case "object":
      break;
    default:
      w.text(`${value as boolean | undefined}`);
      return;
  }
  if (value === null) w.text("null");
  else if (value instanceof String) textString(w, value.valueOf());
  else if (value instanceof Uint8Array) w.text(`<${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}>`);
  else if (Array.isArray(value)) array(w, value);
  else if (value instanceof Date) w.text(date(value));
  else {
    const known = classes;
    if (!known) throw new Unsupported();
    if (value instanceof known.tree) tree(w, value as unknown as Tree);
    else if (value instanceof known.reference) reference(w, value as unknown as PdfRef);
    else {
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) throw new Unsupported();
      dictionary(w, value as Record<string, unknown>);
    }
  }
}

/** pdfkit's number format, in objects and content streams alike: rounded to six decimals. */
export const num = (n: number) => Math.round(n * 1e6) / 1e6;

/** PDFObject.number: `num`, refusing what String() would write in exponent form. */
function pdfNumber(n: number): number {
  if (n > -1e21 && n < 1e21) return num(n);
  throw new Error(`unsupported number: ${n}`);
}

/** `n g R`, as PDFReference.toString writes it. */
function reference(w: ByteWriter, ref: PdfRef): void {
  w.number(ref.id);
  w.byte(0x20);
  w.number(ref.gen);
  w.text(" R");
}

function array(w: ByteWriter, values: readonly unknown[]): void {
  w.byte(0x5b);
  for (let i = 0; i < values.length; i++) {
    if (i > 0) w.byte(0x20);
    // pdfkit writes a hole or undefined as null.
    writeValue(w, values[i] ?? null);
  }
  w.byte(0x5d);
}

function dictionary(w: ByteWriter, entries: Record<string, unknown>): void {
  w.text("<<");
  for (const key in entries) {
    const value = entries[key];
    if (value === undefined) continue;
    w.text("\n/");
    w.text(key);
    w.byte(0x20);
    writeValue(w, value);
  }
  w.text("\n>>");
}

function tree(w: ByteWriter, t: Tree): void {
  const names = t._keysName() === "Names";
  const keys = Object.keys(t._items).sort(names ? byCodeUnits : (a, b) => t._compareKeys(a, b));
  w.text("<<");
  if (t.limits && keys.length > 1) {
    w.text("\n  /Limits [");
    writeValue(w, t._dataForKey(keys[0]!));
    w.byte(0x20);
    writeValue(w, t._dataForKey(keys.at(-1)!));
    w.byte(0x5d);
  }
  w.text("\n  /");
  w.text(t._keysName());
  w.text(" [");
  for (const key of keys) {
    w.text("\n    ");
    writeValue(w, t._dataForKey(key));
    w.byte(0x20);
    writeValue(w, t._items[key]);
  }
  w.text("\n]\n>>");
}

/**
 * A name tree's keys in the order PDF 32000-1 (7.9.6) asks for, that of their bytes. pdfkit's name tree
 * sorts them by `localeCompare`, whose ICU collation differs from it for some keys and, on its first use,
 * reads 1.75 MiB of collation data into the process. The keys written here (`section-<n>`) are ASCII,
 * whose code units are their bytes.
 */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** pdfkit's escapes in a literal string (PDF 32000-1, 7.3.4.2): the character after the backslash, by byte. */
const ESCAPES: Readonly<Record<number, number>> = { 10: 0x6e, 13: 0x72, 9: 0x74, 8: 0x62, 12: 0x66, 92: 0x5c, 40: 0x28, 41: 0x29 };

/** A text string: as it is when ASCII, else UTF-16BE with a byte order mark; escaped byte by byte. */
function textString(w: ByteWriter, text: string): void {
  let ascii = true;
  for (let i = 0; i < text.length && ascii; i++) ascii = text.charCodeAt(i) <= 0x7f;
  w.byte(0x28);
  if (ascii) {
    for (let i = 0; i < text.length; i++) escaped(w, text.charCodeAt(i));
  } else {
    w.byte(0xfe);
    w.byte(0xff);
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      escaped(w, unit >> 8);
      escaped(w, unit & 0xff);
    }
  }
  w.byte(0x29);
}

function escaped(w: ByteWriter, byte: number): void {
  const escape = ESCAPES[byte];
  if (escape !== undefined) w.byte(0x5c);
  w.byte(escape ?? byte);
}

const pad = (n: number, length: number) => `${"0".repeat(length)}${n}`.slice(-length);

function date(d: Date): string {
  return `(D:${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)}${pad(d.getUTCHours(), 2)}${pad(d.getUTCMinutes(), 2)}${pad(d.getUTCSeconds(), 2)}Z)`;
}

const HEX: string[] = [];

/** A 16-bit code as pdfkit writes it in a hex string: its last four hex digits (each kept once made). */
export function hex4(code: number): string {
  let hex = HEX[code];
  if (hex === undefined) {
    hex = `0000${code.toString(16)}`.slice(-4);
    if (code < 0x10000) HEX[code] = hex;
  }
  return hex;
}
