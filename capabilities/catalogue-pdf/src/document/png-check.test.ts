import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodePng, fixChecksums, gradientPng } from "../../test/fixtures/png.js";
import { checkPng } from "./png-check.js";

const signal = new AbortController().signal;

describe("checkPng", () => {
  const valid: [string, Parameters<typeof encodePng>[0], boolean][] = [
    ["RGB", { width: 33, height: 17, colorType: 2, bitDepth: 8 }, false],
    ["16-bit grey", { width: 33, height: 17, colorType: 0, bitDepth: 16 }, false],
    ["1-bit grey", { width: 33, height: 17, colorType: 0, bitDepth: 1 }, false],
    ["palette", { width: 33, height: 17, colorType: 3, bitDepth: 2 }, false],
    ["palette with transparency", { width: 33, height: 17, colorType: 3, bitDepth: 8, transparency: true }, true],
    ["RGBA", { width: 33, height: 17, colorType: 6, bitDepth: 8 }, true],
    ["grey with alpha, 16-bit", { width: 33, height: 17, colorType: 4, bitDepth: 16 }, true],
    ["interlaced RGB", { width: 33, height: 17, colorType: 2, bitDepth: 8, interlaced: true }, true],
    ["interlaced 1×1", { width: 1, height: 1, colorType: 2, bitDepth: 8, interlaced: true }, true],
  ];
  for (const [name, options, decoded] of valid) {
    it(`accepts a sound ${name} PNG${decoded ? ", marked as decoded in memory by pdfkit" : ""}`, async () => {
      expect(await checkPng(encodePng(options), signal)).toMatchObject({ width: options.width, height: options.height, decodedInMemory: decoded });
    });
  }

  it("refuses a decompression bomb without inflating it (1×1 pixels, 50 MB of data)", async () => {
    const bomb = encodePng({ width: 1, height: 1, colorType: 2, bitDepth: 8, idat: deflateSync(Buffer.alloc(50 * 1024 * 1024)) });
    const started = performance.now();
    await expect(checkPng(bomb, signal)).rejects.toThrow("the pixel data is longer than the image");
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("refuses pixel data shorter than the header promises", async () => {
    const short = encodePng({ width: 100, height: 100, colorType: 2, bitDepth: 8, idat: deflateSync(Buffer.alloc(301 * 50)) });
    await expect(checkPng(short, signal)).rejects.toThrow("the pixel data is shorter than the image");
  });

  it("refuses an invalid filter type (what made pdfkit's decoder throw outside any try)", async () => {
    const rows = Buffer.alloc((1 + 4 * 4) * 4);
    rows[17] = 105;
    await expect(checkPng(encodePng({ width: 4, height: 4, colorType: 6, bitDepth: 8, idat: deflateSync(rows) }), signal)).rejects.toThrow("invalid filter type 105");
  });

  it("refuses data that does not decompress", async () => {
    await expect(checkPng(encodePng({ width: 4, height: 4, colorType: 2, bitDepth: 8, idat: Buffer.from("not deflate") }), signal)).rejects.toThrow(/does not decompress/);
  });

  it("refuses a wrong checksum, a truncated file and impossible headers", async () => {
    const png = gradientPng(8, 8);
    const flipped = Buffer.from(png);
    flipped.writeUInt8(flipped.readUInt8(40) ^ 0xff, 40);
    await expect(checkPng(flipped, signal)).rejects.toThrow(/checksum is wrong/);
    await expect(checkPng(png.subarray(0, png.length - 12), signal)).rejects.toThrow("the file ends before its IEND chunk");
    const badDepth = Buffer.from(png);
    badDepth[24] = 3;
    await expect(checkPng(fixChecksums(badDepth), signal)).rejects.toThrow("colour type 2 with bit depth 3 is not a valid combination");
    const noPalette = encodePng({ width: 2, height: 2, colorType: 2, bitDepth: 8 });
    noPalette[25] = 3;
    await expect(checkPng(fixChecksums(noPalette), signal)).rejects.toThrow("a palette image without a palette");
  });

  it("refuses tRNS and palette chunks of the wrong size (read past their end when embedding)", async () => {
    /** The PNG with a chunk inserted before its first IDAT. */
    const withChunk = (png: Buffer, type: string, body: Buffer) => {
      const at = png.indexOf("IDAT") - 4;
      const chunk = Buffer.concat([Buffer.alloc(4), Buffer.from(type, "latin1"), body, Buffer.alloc(4)]);
      chunk.writeUInt32BE(body.length, 0);
      return fixChecksums(Buffer.concat([png.subarray(0, at), chunk, png.subarray(at)]));
    };
    const grey = encodePng({ width: 4, height: 4, colorType: 0, bitDepth: 8 });
    await expect(checkPng(withChunk(grey, "tRNS", Buffer.alloc(1)), signal)).rejects.toThrow("the tRNS chunk has 1 bytes, not 2");
    expect(await checkPng(withChunk(grey, "tRNS", Buffer.alloc(2)), signal)).toMatchObject({ width: 4 });
    const rgb = encodePng({ width: 4, height: 4, colorType: 2, bitDepth: 8 });
    await expect(checkPng(withChunk(rgb, "tRNS", Buffer.alloc(4)), signal)).rejects.toThrow("the tRNS chunk has 4 bytes, not 6");
    const rgba = encodePng({ width: 4, height: 4, colorType: 6, bitDepth: 8 });
    await expect(checkPng(withChunk(rgba, "tRNS", Buffer.alloc(2)), signal)).rejects.toThrow("already has an alpha channel");
  });
});
