import { constants, createInflate, inflateSync } from "node:zlib";

/**
 * Decoders for the PDF stream filters that can make data larger (issue 10 item 2: decompression bombs),
 * each stopping as soon as its output passes `cap` bytes, so measuring a bomb never holds the bomb.
 * A decoder keeps its output only when `keep` is set (another filter follows); otherwise it only counts.
 * Damaged data ends the output where the damage starts, as readers do: what came before still counts.
 */
export interface Decoded {
  /** Bytes decoded, at most cap + 1 (cap + 1 means "over the cap"). */
  size: number;
  /** The decoded bytes when asked to keep them. */
  bytes?: Buffer;
}

export type Decoder = (input: Buffer, cap: number, keep: boolean) => Promise<Decoded>;

/**
 * FlateDecode with zlib; trailing bytes after the end of the deflate data are ignored. One synchronous
 * call first (an ordinary stream costs a fraction of a millisecond that way, against several for a zlib
 * stream object); damaged data, which that call refuses whole, is measured again by the streaming decoder,
 * which counts what comes out before the damage, as readers would decode it.
 */
export const inflate: Decoder = async (input, cap, keep) => {
  try {
    const bytes = inflateSync(input, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: cap + 1 });
    return keep ? { size: bytes.length, bytes } : { size: bytes.length };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || err instanceof RangeError) return { size: cap + 1 };
  }
  return inflateStreaming(input, cap, keep);
};

function inflateStreaming(input: Buffer, cap: number, keep: boolean): Promise<Decoded> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      resolve(keep ? { size, bytes: Buffer.concat(chunks).subarray(0, cap + 1) } : { size });
    };
    const z = createInflate({ finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 64 * 1024 });
    z.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (keep) chunks.push(chunk);
      if (size > cap) {
        size = cap + 1;
        z.destroy();
        done();
      }
    });
    z.on("end", done);
    z.on("error", done);
    z.on("close", done);
    z.end(input);
  });
}

/** LZWDecode (EarlyChange 1, as PDF writers use), counting codes as they expand. */
export const lzw: Decoder = async (input, cap, keep) => {
  const table: Buffer[] = [];
  for (let i = 0; i < 256; i++) table.push(Buffer.from([i]));
  const reset = () => (table.length = 258);
  table.push(Buffer.alloc(0), Buffer.alloc(0));
  const out: Buffer[] = [];
  let size = 0;
  let bits = 9;
  let buffer = 0;
  let held = 0;
  let previous: Buffer | undefined;
  for (const byte of input) {
    buffer = (buffer << 8) | byte;
    held += 8;
    while (held >= bits) {
      const code = (buffer >>> (held - bits)) & ((1 << bits) - 1);
      held -= bits;
      buffer &= (1 << held) - 1;
      if (code === 256) {
        reset();
        bits = 9;
        previous = undefined;
        continue;
      }
      if (code === 257) return finish();
      let entry = table[code];
      if (!entry) {
        if (!previous || code !== table.length) return finish();
        entry = Buffer.concat([previous, previous.subarray(0, 1)]);
      }
      if (previous && table.length < 4096) table.push(Buffer.concat([previous, entry.subarray(0, 1)]));
      previous = entry;
      size += entry.length;
      if (keep) out.push(entry);
      if (size > cap) return { size: cap + 1, ...(keep ? { bytes: Buffer.concat(out).subarray(0, cap + 1) } : {}) };
      bits = table.length + 1 >= 4096 ? 12 : table.length + 1 >= 2048 ? 12 : table.length + 1 >= 1024 ? 11 : table.length + 1 >= 512 ? 10 : 9;
    }
  }
  return finish();

  function finish(): Decoded {
    return keep ? { size, bytes: Buffer.concat(out) } : { size };
  }
};

/** RunLengthDecode: up to 128 copies of a byte per two input bytes. */
export const runLength: Decoder = async (input, cap, keep) => {
  const out: Buffer[] = [];
  let size = 0;
  for (let i = 0; i < input.length; ) {
    const length = input[i]!;
    if (length === 128) break;
    const piece = length < 128 ? input.subarray(i + 1, i + 2 + length) : Buffer.alloc(257 - length, input[i + 1] ?? 0);
    i += length < 128 ? 2 + length : 2;
    size += piece.length;
    if (keep) out.push(piece);
    if (size > cap) return { size: cap + 1 };
  }
  return keep ? { size, bytes: Buffer.concat(out) } : { size };
};

/** ASCIIHexDecode: never larger than its input. */
export const asciiHex: Decoder = async (input) => {
  const end = input.indexOf(">");
  const hex = input
    .subarray(0, end < 0 ? input.length : end)
    .toString("latin1")
    .replace(/[^0-9a-fA-F]/g, "");
  const bytes = Buffer.from(hex.length % 2 ? `${hex}0` : hex, "hex");
  return { size: bytes.length, bytes };
};

/** ASCII85Decode: never larger than 5/4 of its input ("z" is 4 zero bytes for 1). */
export const ascii85: Decoder = async (input, cap) => {
  const end = input.indexOf("~>");
  const text = input
    .subarray(0, end < 0 ? input.length : end)
    .toString("latin1")
    .replace(/\s/g, "");
  const out: number[] = [];
  let group: number[] = [];
  const flush = (count: number) => {
    while (group.length < 5) group.push(84);
    let value = 0;
    for (const digit of group) value = value * 85 + digit;
    for (let k = 0; k < count; k++) out.push((value >>> (24 - 8 * k)) & 0xff);
    group = [];
  };
  for (const char of text) {
    if (out.length > cap) break;
    if (char === "z" && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const digit = char.charCodeAt(0) - 33;
    if (digit < 0 || digit > 84) continue;
    group.push(digit);
    if (group.length === 5) flush(4);
  }
  if (group.length > 1) flush(group.length - 1);
  return { size: Math.min(out.length, cap + 1), bytes: Buffer.from(out.slice(0, cap + 1)) };
};

/** Filters by their names and abbreviations; image codecs are read only to draw images, never for text or merging. */
export const DECODERS: Record<string, Decoder | "image"> = {
  FlateDecode: inflate,
  Fl: inflate,
  LZWDecode: lzw,
  LZW: lzw,
  RunLengthDecode: runLength,
  RL: runLength,
  ASCIIHexDecode: asciiHex,
  AHx: asciiHex,
  ASCII85Decode: ascii85,
  A85: ascii85,
  DCTDecode: "image",
  DCT: "image",
  JPXDecode: "image",
  JBIG2Decode: "image",
  CCITTFaxDecode: "image",
  CCF: "image",
};
