import { describe, expect, it } from "vitest";
import { countNewlines } from "./grep-file.js";

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
