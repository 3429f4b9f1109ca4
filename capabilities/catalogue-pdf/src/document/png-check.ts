import { crc32, createInflate } from "node:zlib";

/** What a PNG's chunks say: its header and where its pixel data is. */
export interface PngStructure {
  width: number;
  height: number;
  /**
   * pdfkit decodes these in memory (alpha channel, palette transparency, interlacing) instead of copying
   * the compressed data: they get a lower pixel limit.
   */
  decodedInMemory: boolean;
  header: PngHeader;
  /** The IDAT chunks' contents: together, one zlib stream. */
  data: Buffer[];
  /** PLTE: RGB triplets. */
  palette?: Buffer;
  /** tRNS, as stored (alpha per palette entry, or the transparent grey or RGB value). */
  transparency?: Buffer;
}

export interface PngHeader {
  width: number;
  height: number;
  depth: number;
  colorType: number;
  interlaced: boolean;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Samples per pixel by colour type. */
export const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, readonly number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Adam7 interlacing: x0, y0, dx, dy of the seven passes. */
export const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** A PNG we refuse, with the reason in words. */
export class BadPng extends Error {}

/**
 * Checks a PNG end to end before pdfkit sees it (the structure here, the pixels with {@link checkPngPixels}).
 * pdfkit's PNG decoder (png-js) throws from a zlib callback on bad data, which would end the process, and
 * inflates without a bound, so a small file could expand to gigabytes.
 * @throws {BadPng}
 */
export async function checkPng(bytes: Buffer, signal: AbortSignal): Promise<PngStructure> {
  const structure = readPngStructure(bytes);
  await checkPngPixels(structure, signal);
  return structure;
}

/**
 * Reads a PNG's chunks: layout and checksums, a valid header, a palette where one is needed, pixel data.
 * @throws {BadPng}
 */
export function readPngStructure(bytes: Buffer): PngStructure {
  if (!bytes.subarray(0, 8).equals(SIGNATURE)) throw new BadPng("no PNG signature");
  let at = 8;
  let header: PngHeader | undefined;
  let palette: Buffer | undefined;
  let transparency: Buffer | undefined;
  const data: Buffer[] = [];
  for (;;) {
    if (at + 12 > bytes.length) throw new BadPng("the file ends before its IEND chunk");
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    if (at + 12 + length > bytes.length) throw new BadPng(`the ${type} chunk runs past the end of the file`);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== bytes.readUInt32BE(at + 8 + length)) throw new BadPng(`the ${type} chunk's checksum is wrong`);
    at += 12 + length;
    if (!header && type !== "IHDR") throw new BadPng("the first chunk is not IHDR");
    if (type === "IHDR") header = readHeader(body);
    else if (type === "PLTE") palette = body;
    else if (type === "tRNS") transparency = body;
    else if (type === "IDAT") data.push(body);
    else if (type === "IEND") break;
  }
  if (!header) throw new BadPng("no IHDR chunk");
  if (header.colorType === 3 && !palette) throw new BadPng("a palette image without a palette");
  // Sizes the embedding relies on (PNG spec 11.2.3, 11.3.2.1): read past otherwise.
  if (palette && (palette.length === 0 || palette.length % 3 !== 0 || palette.length > 768)) throw new BadPng("the palette's size is not 1 to 256 RGB entries");
  if (transparency) {
    const expected = header.colorType === 0 ? 2 : header.colorType === 2 ? 6 : undefined;
    if (expected !== undefined && transparency.length !== expected) throw new BadPng(`the tRNS chunk has ${transparency.length} bytes, not ${expected}`);
    if (header.colorType === 3 && transparency.length > palette!.length / 3) throw new BadPng("the tRNS chunk has more entries than the palette");
    if (header.colorType === 4 || header.colorType === 6) throw new BadPng("a tRNS chunk in an image that already has an alpha channel");
  }
  if (data.length === 0) throw new BadPng("no pixel data");
  return {
    width: header.width,
    height: header.height,
    decodedInMemory: header.interlaced || header.colorType === 4 || header.colorType === 6 || (header.colorType === 3 && !!transparency),
    header,
    data,
    ...(palette ? { palette } : {}),
    ...(transparency ? { transparency } : {}),
  };
}

/**
 * Checks that the pixel data inflates to exactly the size the header promises, with a valid filter byte on
 * every row. Inflating is streamed and stops at the expected size: little memory whatever the file claims.
 * @throws {BadPng}
 */
export function checkPngPixels(structure: PngStructure, signal: AbortSignal): Promise<void> {
  return checkPixelData(structure.data, rowLengths(structure.header), signal);
}

function readHeader(body: Buffer): PngHeader {
  if (body.length !== 13) throw new BadPng("the IHDR chunk has the wrong size");
  const [depth, colorType, compression, filter, interlace] = body.subarray(8, 13);
  const width = body.readUInt32BE(0);
  const height = body.readUInt32BE(4);
  if (width === 0 || height === 0) throw new BadPng("the image has no pixels");
  if (!DEPTHS[colorType!]?.includes(depth!)) throw new BadPng(`colour type ${colorType} with bit depth ${depth} is not a valid combination`);
  if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) throw new BadPng("unknown compression, filter or interlace method");
  return { width, height, depth: depth!, colorType: colorType!, interlaced: interlace === 1 };
}

/** Length of every scanline (filter byte included) in the order they are stored. */
function* rowLengths(h: PngHeader): Generator<number> {
  const bitsPerPixel = CHANNELS[h.colorType]! * h.depth;
  const passes = h.interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
  for (const [x0, y0, dx, dy] of passes) {
    const w = Math.ceil((h.width - x0) / dx);
    const rows = Math.ceil((h.height - y0) / dy);
    if (w <= 0 || rows <= 0) continue;
    const length = 1 + Math.ceil((w * bitsPerPixel) / 8);
    for (let r = 0; r < rows; r++) yield length;
  }
}

async function checkPixelData(data: Buffer[], rows: Generator<number>, signal: AbortSignal): Promise<void> {
  const inflate = createInflate();
  const feed = (async () => {
    for (const part of data) if (!inflate.write(part)) await new Promise((r) => inflate.once("drain", r));
    inflate.end();
  })();
  feed.catch(() => {});
  let left = rows.next();
  let inRow = 0; // bytes still to come in the current row; 0 means the next byte is a filter byte
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      signal.throwIfAborted();
      for (let i = 0; i < chunk.length; ) {
        if (inRow === 0) {
          if (left.done) throw new BadPng("the pixel data is longer than the image");
          if (chunk[i]! > 4) throw new BadPng(`row data has an invalid filter type ${chunk[i]}`);
          inRow = left.value - 1;
          left = rows.next();
          i += 1;
          continue;
        }
        const take = Math.min(inRow, chunk.length - i);
        inRow -= take;
        i += take;
      }
    }
  } catch (err) {
    if (err instanceof BadPng || signal.aborted) throw err;
    throw new BadPng(`the pixel data does not decompress (${(err as Error).message})`);
  } finally {
    inflate.destroy();
  }
  if (inRow !== 0 || !left.done) throw new BadPng("the pixel data is shorter than the image");
}
