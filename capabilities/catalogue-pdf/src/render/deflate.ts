import { deflateSync } from "node:zlib";

// zlib sets up a 32 KiB window and a 32 Ki-entry hash table for every stream by default, which for a
// page's few KiB of operators or a cross-reference table costs more than compressing them: a letter's
// three streams took 150 µs. A window just larger than the input finds every match the default would
// (a match reaches back at most the window less zlib's 262-byte lookahead), so the output is as small.

/** `bytes` deflated (zlib format, for FlateDecode) at zlib's default level, with tables sized to the input. */
export function deflate(bytes: Uint8Array | string): Buffer {
  const length = typeof bytes === "string" ? Buffer.byteLength(bytes) : bytes.byteLength;
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(length + 262))));
  return deflateSync(bytes, { windowBits, memLevel: Math.min(8, Math.max(2, windowBits - 6)) });
}

/**
 * Streams shorter than this are written as they are: zlib's fixed cost per stream (its stream object and
 * state, 50–80 µs in a render's churned heap) outweighs the few hundred bytes deflating them saves. A
 * letter's object stream and cross-reference stream are this small.
 */
export const MIN_DEFLATED = 1024;

/** A stream's bytes as they are written: deflated unless short. */
export interface Packed {
  data: Buffer;
  deflated: boolean;
}

/** `bytes` as a stream holds them: deflated unless shorter than MIN_DEFLATED. */
export function packed(bytes: Buffer): Packed {
  return bytes.length < MIN_DEFLATED ? { data: bytes, deflated: false } : { data: deflate(bytes), deflated: true };
}

/** A stream's bytes and the filter entry to write in its dictionary: deflated unless short. */
export function streamBytes(bytes: Buffer): { data: Buffer; filter: string } {
  const { data, deflated } = packed(bytes);
  return { data, filter: deflated ? " /Filter /FlateDecode" : "" };
}
