import { formatBytes, formatCount, ToolError } from "@selu-catalogue/kit";
import { PDF_LIMITS } from "../limits.js";
import type { PdfInput } from "./pdf-input.js";
import { DECODERS, inflate, lzw, type Decoded } from "./stream-filters.js";

/** What a PDF's streams decode to, measured before any PDF library reads the file. */
export interface StreamCensus {
  streams: number;
  objects: number;
  decodedBytes: number;
}

/**
 * Measures every stream of a PDF the way a reader would decode it, and refuses the file as soon as one
 * stream or all of them together decode past the limits (issue 10 item 2: a 131 KB PDF whose page
 * content inflates to 128 MB killed extract_pdf_text; a 522 KB object stream inflating to 512 MB killed
 * merge_pdfs). Neither pdf.js nor pdf-lib bounds what it inflates, so this runs first, on the raw bytes.
 *
 * Every `stream` keyword in the file is measured, whatever object it belongs to and wherever a reader's
 * cross-reference table points, from its data to the end of the file: each filter ends its own data
 * (deflate, LZW and run-length have end markers), so a lying /Length or a fake `endstream` changes nothing.
 * A /Filter given by reference is looked up; one that can't be is guessed from the data (zlib header).
 */
export async function censusStreams(input: PdfInput, signal: AbortSignal): Promise<StreamCensus> {
  const { bytes } = input;
  const text = bytes.toString("latin1");
  const refuse = (what: string) => bombError(input, what);
  let objects = countObjects(text);
  if (objects > PDF_LIMITS.maxPdfObjects) throw refuse(`it has more than ${formatCount(PDF_LIMITS.maxPdfObjects)} objects`);
  let streams = 0;
  let decodedBytes = 0;
  let imageBytes = 0;
  let objectStreamBytes = 0;
  for (const match of text.matchAll(STREAM_KEYWORD)) {
    if (++streams > PDF_LIMITS.maxPdfStreams) throw refuse(`it has more than ${formatCount(PDF_LIMITS.maxPdfStreams)} streams`);
    if (streams % 64 === 0) {
      signal.throwIfAborted();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const dataStart = afterEol(text, match.index + match[0].length);
    const dict = dictionaryBefore(text, match.index);
    const image = /\/Subtype\s*\/Image\b/.test(dict);
    const cap = image ? PDF_LIMITS.maxImageStreamDecodedBytes : PDF_LIMITS.maxStreamDecodedBytes;
    const size = await decodedSize(bytes.subarray(dataStart), filtersOf(dict, text), cap);
    if (size > cap) throw refuse(`a stream decodes to more than ${formatBytes(cap)}`);
    // Images (only drawing decodes them) have a budget of their own; the rest is what readers decode.
    if (image) imageBytes += size;
    else decodedBytes += size;
    if (decodedBytes > PDF_LIMITS.maxPdfDecodedBytes) throw refuse(`its streams decode to more than ${formatBytes(PDF_LIMITS.maxPdfDecodedBytes)} in all`);
    if (imageBytes > PDF_LIMITS.maxPdfImageDecodedBytes) throw refuse(`its images decode to more than ${formatBytes(PDF_LIMITS.maxPdfImageDecodedBytes)} in all`);
    if (/\/Type\s*\/ObjStm\b/.test(dict)) {
      const count = Number(/\/N\s+(\d+)/.exec(dict)?.[1] ?? 0);
      objects += count;
      if (objects > PDF_LIMITS.maxPdfObjects) throw refuse(`it has more than ${formatCount(PDF_LIMITS.maxPdfObjects)} objects`);
      objectStreamBytes += size;
      if (objectStreamBytes > PDF_LIMITS.maxObjectStreamDecodedBytes) throw refuse(`its object streams decode to more than ${formatBytes(PDF_LIMITS.maxObjectStreamDecodedBytes)} in all`);
    }
  }
  return { streams, objects, decodedBytes };
}

/** The error for a file past a decode limit. */
function bombError(input: PdfInput, what: string): ToolError {
  return new ToolError(`${input.field} (${input.filename}): ${what}; the PDF can't be read safely (it looks like a decompression bomb). Attach a simpler or smaller PDF`);
}

/**
 * Measures object streams one by one against the object streams' budget, as the census does in a plain
 * file: for an encrypted one (read/decrypt.ts), whose object streams can only be measured once decrypted,
 * before pdf-lib inflates them whole. `filters` are the stream's filter names in order.
 */
export function objectStreamBudget(input: PdfInput): (data: Buffer, filters: readonly string[]) => Promise<void> {
  let total = 0;
  return async (data, filters) => {
    const cap = PDF_LIMITS.maxObjectStreamDecodedBytes;
    total += await decodedSize(data, filters, cap);
    if (total > cap) throw bombError(input, `its object streams decode to more than ${formatBytes(cap)} in all`);
  };
}

// `stream` as a keyword: after whitespace or the dictionary's `>>`, never the end of `endstream`.
const STREAM_KEYWORD = /(?<=[\0\t\n\f\r >])stream(?![A-Za-z0-9])/g;

/** Readers skip to the next line after `stream` (CRLF, LF or CR). */
function afterEol(text: string, from: number): number {
  const eol = text.slice(from, from + 256).search(/\r\n|\n|\r/);
  if (eol < 0) return from;
  return from + eol + (text.startsWith("\r\n", from + eol) ? 2 : 1);
}

/** The dictionary text of the object the stream belongs to: from its `obj` keyword (or 64 KiB back). */
function dictionaryBefore(text: string, streamAt: number): string {
  const from = Math.max(0, streamAt - 65_536);
  const obj = text.lastIndexOf("obj", streamAt);
  return text.slice(obj >= from ? obj + 3 : from, streamAt);
}

/** `N G obj` headers in the file body (objects inside object streams are added from their /N). */
function countObjects(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(/\d+\s+\d+\s+obj\b/g)) count++;
  return count;
}

/** The stream's filters in order; `undefined` entries are filters we can't see (guessed from the data). */
function filtersOf(dict: string, text: string): (string | undefined)[] {
  const value = /\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()%]+|\d+\s+\d+\s+R)/.exec(dict)?.[1];
  if (!value) return [];
  const reference = /^(\d+)\s+(\d+)\s+R$/.exec(value);
  if (reference) {
    const target = new RegExp(`(?<![0-9])${reference[1]}\\s+${reference[2]}\\s+obj\\s*(\\[[^\\]]*\\]|/[^\\s/[\\]<>()%]+)`).exec(text)?.[1];
    return target ? names(target) : [undefined];
  }
  return names(value);
}

function names(value: string): (string | undefined)[] {
  const found = [...value.matchAll(/\/([^\s/[\]<>()%]+)|(\d+\s+\d+\s+R)/g)].map((m) => (m[1] ? decodeName(m[1]) : undefined));
  return found;
}

/** PDF names may spell characters as #xx (`/Flate#44ecode`); readers decode them. */
function decodeName(name: string): string {
  return name.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * Bytes the filter chain produces from `data`, at most cap + 1. An image codec ends the chain (only
 * drawing decodes it); an unknown filter ends it too (readers refuse it); a filter we could not see is
 * taken as deflate when the data starts like zlib, else as LZW when it starts with a clear code.
 */
async function decodedSize(data: Buffer, filters: readonly (string | undefined)[], cap: number): Promise<number> {
  let current: Decoded = { size: data.length, bytes: data };
  for (const [index, name] of filters.entries()) {
    const decoder = name === undefined ? guess(current.bytes!) : DECODERS[name];
    if (!decoder || decoder === "image") break;
    const keep = index < filters.length - 1;
    current = await decoder(current.bytes!, cap, keep);
    if (current.size > cap) return cap + 1;
    if (!current.bytes) break;
  }
  // A stream without filters is as long as its data; bounded by the file itself, so not counted here.
  return filters.length === 0 ? 0 : current.size;
}

function guess(data: Buffer) {
  if (data.length >= 2 && (data[0]! & 0x0f) === 8 && ((data[0]! << 8) | data[1]!) % 31 === 0) return inflate;
  if (data[0] === 0x80) return lzw;
  return undefined;
}
