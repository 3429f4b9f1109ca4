import { describe, expect, it } from "vitest";
import { fontFile } from "./embed-fonts.js";
import { fonts } from "./fonts.js";

describe("fontFile", () => {
  it("reuses the font program for the same glyphs, whatever their order and repeats", () => {
    const first = fontFile(fonts().regular, [0, 40, 41, 42]);
    expect(fontFile(fonts().regular, [42, 41, 0, 40, 40])).toBe(first);
    expect(fontFile(fonts().regular, [0, 40, 41])).not.toBe(first);
    expect(fontFile(fonts().bold, [0, 40, 41, 42])).not.toBe(first);
  });
});
