import { describe, expect, it } from "vitest";
import { countNewlines, lowerAscii } from "./grep-file.js";

describe("countNewlines", () => {
  it("counts exactly at every alignment and length, including bytes next to 0x0a", () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => [0x0a, 0x0b, 0x8a, 0x09, 0x00, 0xff][(i * 7) % 6]!));
    for (let from = 0; from < 9; from++) {
      for (const to of [from, from + 1, from + 7, 500, 999, 1000]) {
        let expected = 0;
        for (let i = from; i < to; i++) if (bytes[i] === 0x0a) expected++;
        expect(countNewlines(bytes, from, to), `${from}..${to}`).toBe(expected);
      }
    }
    const offset = Buffer.concat([Buffer.from("x"), bytes]).subarray(1);
    expect(countNewlines(offset, 0, 1000)).toBe(countNewlines(bytes, 0, 1000));
  });
});

describe("lowerAscii", () => {
  it("lowercases A..Z only, leaving every other byte (UTF-8 included) as it is, at any length", () => {
    const all = Buffer.from(Array.from({ length: 256 * 3 + 3 }, (_, i) => i % 256));
    const out = lowerAscii(all, Buffer.alloc(all.length));
    for (let i = 0; i < all.length; i++) {
      const b = all[i]!;
      expect(out[i], `byte ${b}`).toBe(b >= 0x41 && b <= 0x5a ? b + 0x20 : b);
    }
  });
});
