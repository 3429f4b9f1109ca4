import { deflateSync, inflateSync } from "node:zlib";
import { ADAM7, CHANNELS, type PngStructure } from "../document/png-check.js";
import type { Doc } from "./doc.js";

/** What pdfkit's `doc.image()` accepts besides a file: an object that embeds itself once. */
export interface EmbeddableImage {
  readonly label: string;
  readonly width: number;
  readonly height: number;
  obj: unknown;
  embed(doc: Doc): void;
}

interface PdfRef {
  data: Record<string, unknown>;
  end(data?: Uint8Array): void;
}
const ref = (doc: Doc, data: Record<string, unknown>) => (doc as unknown as { ref(d: Record<string, unknown>): PdfRef }).ref(data);

/**
 * Embeds a checked PNG without pdfkit's decoder (png-js), which copies the compressed data into a
 * JavaScript array one byte at a time (tens of MB of heap for a 5 MB file) and throws from a callback on
 * bad data. Opaque, non-interlaced images go in as they are, compressed data and all; images with an alpha
 * channel or interlacing are decoded here into buffers (outside the JavaScript heap) and split into colour
 * and a soft mask. Returns undefined for the rare kinds left to pdfkit: palettes with transparency and
 * interlaced images of fewer than 8 bits a sample.
 */
export function embeddablePng(png: PngStructure, label: string): EmbeddableImage | undefined {
  const { colorType, depth, interlaced } = png.header;
  const hasAlpha = colorType === 4 || colorType === 6;
  if (!interlaced && !hasAlpha && !(colorType === 3 && png.transparency)) return asIs(png, label);
  if (depth >= 8 && colorType !== 3) return decoded(png, label);
  return undefined;
}

function asIs(png: PngStructure, label: string): EmbeddableImage {
  const { width, height, depth, colorType } = png.header;
  return {
    label,
    width,
    height,
    obj: null,
    embed(doc) {
      const obj = ref(doc, {
        Type: "XObject",
        Subtype: "Image",
        Width: width,
        Height: height,
        BitsPerComponent: depth,
        Filter: "FlateDecode",
        // PNG's compressed rows are a Flate stream with PNG predictors, which PDF reads as they are.
        DecodeParms: { Predictor: 15, Colors: CHANNELS[colorType], BitsPerComponent: depth, Columns: width },
        ColorSpace: colorType === 0 ? "DeviceGray" : "DeviceRGB",
      });
      if (colorType === 3) {
        const palette = ref(doc, {});
        palette.end(png.palette!);
        obj.data.ColorSpace = ["Indexed", "DeviceRGB", png.palette!.length / 3 - 1, palette];
      }
      const key = colorKey(png);
      if (key) obj.data.Mask = key;
      obj.end(Buffer.concat(png.data));
      this.obj = obj;
    },
  };
}

/** tRNS of a grey or RGB image: one colour that is transparent, as a PDF colour-key mask. */
function colorKey(png: PngStructure): number[] | undefined {
  const t = png.transparency;
  if (!t || png.header.colorType === 3) return undefined;
  const values = png.header.colorType === 0 ? [t.readUInt16BE(0)] : [t.readUInt16BE(0), t.readUInt16BE(2), t.readUInt16BE(4)];
  return values.flatMap((v) => [v, v]);
}

function decoded(png: PngStructure, label: string): EmbeddableImage {
  const { width, height, colorType } = png.header;
  const hasAlpha = colorType === 4 || colorType === 6;
  return {
    label,
    width,
    height,
    obj: null,
    embed(doc) {
      const { color, alpha } = decodePixels(png);
      const colors = colorType === 0 || colorType === 4 ? 1 : 3;
      const obj = ref(doc, {
        Type: "XObject",
        Subtype: "Image",
        Width: width,
        Height: height,
        BitsPerComponent: 8,
        Filter: "FlateDecode",
        ColorSpace: colors === 1 ? "DeviceGray" : "DeviceRGB",
      });
      if (hasAlpha) {
        const mask = ref(doc, { Type: "XObject", Subtype: "Image", Width: width, Height: height, BitsPerComponent: 8, Filter: "FlateDecode", ColorSpace: "DeviceGray" });
        mask.end(deflateSync(alpha));
        obj.data.SMask = mask;
      }
      const key = colorKey(png);
      if (key) obj.data.Mask = key.map((v) => (png.header.depth === 16 ? v >> 8 : v));
      obj.end(deflateSync(color));
      this.obj = obj;
    },
  };
}

/**
 * Inflates and unfilters the rows (pass by pass when interlaced) into 8-bit colour samples and an alpha
 * plane, taking the high byte of 16-bit samples. The data was checked to inflate to exactly this size.
 */
function decodePixels(png: PngStructure): { color: Buffer; alpha: Buffer } {
  const { width, height, depth, colorType, interlaced } = png.header;
  const channels = CHANNELS[colorType]!;
  const sampleBytes = depth / 8;
  const pixelBytes = channels * sampleBytes;
  const colors = colorType === 0 || colorType === 4 ? 1 : 3;
  const color = Buffer.alloc(width * height * colors);
  const alpha = Buffer.alloc(colorType === 4 || colorType === 6 ? width * height : 0);
  const raw = inflateSync(Buffer.concat(png.data));
  let at = 0;
  for (const [x0, y0, dx, dy] of interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const)) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w <= 0 || h <= 0) continue;
    const rowBytes = w * pixelBytes;
    let previous: Buffer | undefined;
    for (let r = 0; r < h; r++) {
      const filter = raw[at]!;
      const row = raw.subarray(at + 1, at + 1 + rowBytes);
      unfilter(filter, row, previous, pixelBytes);
      at += 1 + rowBytes;
      previous = row;
      const y = y0 + r * dy;
      for (let c = 0; c < w; c++) {
        const pixel = y * width + x0 + c * dx;
        const from = c * pixelBytes;
        for (let k = 0; k < colors; k++) color[pixel * colors + k] = row[from + k * sampleBytes]!;
        if (alpha.length > 0) alpha[pixel] = row[from + colors * sampleBytes]!;
      }
    }
  }
  return { color, alpha };
}

/** Reverses a PNG row filter in place (types 0–4; the type was checked). */
function unfilter(type: number, row: Buffer, previous: Buffer | undefined, bpp: number): void {
  const up = (i: number) => (previous ? previous[i]! : 0);
  const left = (i: number) => (i >= bpp ? row[i - bpp]! : 0);
  const upLeft = (i: number) => (previous && i >= bpp ? previous[i - bpp]! : 0);
  for (let i = 0; i < row.length; i++) {
    switch (type) {
      case 1:
        row[i] = (row[i]! + left(i)) & 0xff;
        break;
      case 2:
        row[i] = (row[i]! + up(i)) & 0xff;
        break;
      case 3:
        row[i] = (row[i]! + ((left(i) + up(i)) >> 1)) & 0xff;
        break;
      case 4: {
        const a = left(i);
        const b = up(i);
        const c = upLeft(i);
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        row[i] = (row[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
        break;
      }
    }
  }
}
