import { describe, expect, it } from "vitest";
import { sniffImage } from "./images.js";

describe("sniffImage", () => {
  it("reads a PNG's size from its IHDR chunk", () => {
    const png = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png);
    png.write("IHDR", 12, "latin1");
    png.writeUInt32BE(640, 16);
    png.writeUInt32BE(320, 20);
    expect(sniffImage(png)).toEqual({ format: "png", width: 640, height: 320 });
  });

  it("walks JPEG segments to the start-of-frame marker", () => {
    const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x04, 0x00, 0x00]);
    const sof0 = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, 0x01, 0x2c, 0x02, 0x58, 0x03, 0x01]);
    expect(sniffImage(Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0, Buffer.alloc(8)]))).toEqual({ format: "jpeg", width: 600, height: 300 });
  });

  it("skips the Huffman table marker (0xC4), which is not a frame", () => {
    const dht = Buffer.from([0xff, 0xc4, 0x00, 0x04, 0xaa, 0xbb]);
    const sof2 = Buffer.from([0xff, 0xc2, 0x00, 0x0b, 0x08, 0x00, 0x10, 0x00, 0x20, 0x03, 0x01]);
    expect(sniffImage(Buffer.concat([Buffer.from([0xff, 0xd8]), dht, sof2, Buffer.alloc(8)]))).toEqual({ format: "jpeg", width: 32, height: 16 });
  });

  it("flags a JPEG PDF can't show (12-bit samples, two components)", () => {
    const sof = (bits: number, components: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xc1, 0x00, 0x0b, bits, 0x00, 0x10, 0x00, 0x20, components, 0x01]), Buffer.alloc(8)]);
    expect(sniffImage(sof(8, 3))).toEqual({ format: "jpeg", width: 32, height: 16 });
    expect(sniffImage(sof(12, 3))).toMatchObject({ unsupported: true });
    expect(sniffImage(sof(8, 2))).toMatchObject({ unsupported: true });
  });

  it("says undefined for anything else, including truncated files", () => {
    expect(sniffImage(Buffer.from("GIF89a"))).toBeUndefined();
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff]))).toBeUndefined();
    expect(sniffImage(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined();
  });
});
