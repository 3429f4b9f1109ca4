import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { inflateSync } from "node:zlib";
import { encodePng } from "../fixtures/png.js";

/** A grey image: one byte a pixel, rows top to bottom. */
export interface Grey {
  width: number;
  height: number;
  pixels: Buffer;
}

/**
 * The ink of page 1's title line, rendered by pdftoppm (grey, 150 dpi) and cropped to its dark pixels, so
 * a reference survives the title moving a little on the page.
 */
export function titleInk(pdf: Uint8Array): Grey {
  const dir = mkdtempSync(join(tmpdir(), "pdf-ref-"));
  try {
    writeFileSync(join(dir, "doc.pdf"), pdf);
    // The title line: points 50–97 of the page at 150 dpi (it starts at the 64 pt margin; the rule under
    // it comes at 98 pt or lower).
    execFileSync("pdftoppm", ["-gray", "-r", "150", "-f", "1", "-l", "1", "-y", "104", "-H", "98", "-x", "0", "-W", "1240", "-singlefile", join(dir, "doc.pdf"), join(dir, "page")]);
    return crop(readPgm(readFileSync(join(dir, "page.pgm"))));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Page `page` rendered grey by pdftoppm at 72 dpi: a pixel a point, so word boxes (pdfWords) index it. */
export function pageGrey(pdf: Uint8Array, page = 1): Grey {
  const dir = mkdtempSync(join(tmpdir(), "pdf-grey-"));
  try {
    writeFileSync(join(dir, "doc.pdf"), pdf);
    execFileSync("pdftoppm", ["-gray", "-r", "72", "-f", String(page), "-l", String(page), "-singlefile", join(dir, "doc.pdf"), join(dir, "page")]);
    return readPgm(readFileSync(join(dir, "page.pgm")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readPgm(file: Buffer): Grey {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(file.toString("latin1", 0, 64));
  if (!header) throw new Error("not a binary PGM");
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, pixels: file.subarray(header[0].length, header[0].length + width * height) };
}

function crop(image: Grey): Grey {
  let [x0, y0, x1, y1] = [image.width, image.height, -1, -1];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (image.pixels[y * image.width + x]! < 128) [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  }
  if (x1 < 0) return { width: 0, height: 0, pixels: Buffer.alloc(0) };
  const width = x1 - x0 + 1;
  const height = y1 - y0 + 1;
  const pixels = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) image.pixels.copy(pixels, y * width, (y0 + y) * image.width + x0, (y0 + y) * image.width + x0 + width);
  return { width, height, pixels };
}

/** Writes a grey PNG (rows unfiltered, so {@link readReference} needs no unfiltering). */
export function writeReference(path: string, image: Grey): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, encodePng({ width: image.width, height: image.height, colorType: 0, bitDepth: 8, pixel: (x, y) => [image.pixels[y * image.width + x]!] }));
}

/** Reads a reference written by {@link writeReference}. */
export function readReference(path: string): Grey | undefined {
  if (!existsSync(path)) return undefined;
  const png = readFileSync(path);
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString("latin1", at + 4, at + 8) === "IDAT") idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const pixels = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    if (raw[y * (width + 1)] !== 0) throw new Error(`${path}: row ${y} is filtered; write references with writeReference`);
    raw.copy(pixels, y * width, y * (width + 1) + 1, (y + 1) * (width + 1));
  }
  return { width, height, pixels };
}

/**
 * The share of pixels that differ by more than a quarter of the grey range, over the larger of the two
 * images (a size difference counts as differing pixels): anti-aliasing noise stays far below 1 %, a
 * missing mark, a wrong conjunct or letters in the wrong order do not.
 */
export function difference(a: Grey, b: Grey): number {
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  let differing = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const pa = x < a.width && y < a.height ? a.pixels[y * a.width + x]! : 255;
      const pb = x < b.width && y < b.height ? b.pixels[y * b.width + x]! : 255;
      if (Math.abs(pa - pb) > 64) differing++;
    }
  }
  return differing / (width * height);
}
