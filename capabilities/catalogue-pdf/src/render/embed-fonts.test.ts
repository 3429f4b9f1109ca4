import { describe, expect, it } from "vitest";
import { VARIANT } from "../text/font-face.js";
import { fontFile, toUnicodeCmap } from "./embed-fonts.js";
import { fonts } from "./fonts.js";

describe("fontFile", () => {
  it("reuses the font program for the same glyphs, whatever their order, repeats and variants", () => {
    const first = fontFile(fonts().regular, [0, 40, 41, 42]);
    expect(fontFile(fonts().regular, [42, 41, 0, 40 + VARIANT, 40])).toBe(first);
    expect(fontFile(fonts().regular, [0, 40, 41])).not.toBe(first);
    expect(fontFile(fonts().bold, [0, 40, 41, 42])).not.toBe(first);
    // Kept across documents: in memory of its own, not a view into a 64 KiB slab of Node's buffer pool.
    expect(first.deflated.buffer.byteLength).toBe(first.deflated.byteLength);
  });
});

describe("toUnicodeCmap", () => {
  it("maps each code to its characters in UTF-16, a ligature to both letters, a mark to none", () => {
    const cmap = toUnicodeCmap([[0], [0x66, 0x69], [], [0x1f600]]);
    expect(cmap).toContain("1 beginbfrange\n<0000> <0003> [<0000> <0066 0069> <> <d83d de00>]\nendbfrange");
  });
});
