import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as hb from "harfbuzzjs";
import { describe, expect, it } from "vitest";
import { FontFace } from "./font-face.js";

const file = () => readFileSync(join(dirname(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/package.json")), "ttf", "DejaVuSans-Bold.ttf"));

describe("FontFace's file", () => {
  it("is read from HarfBuzz's copy, not kept as given", () => {
    const given = file();
    const face = new FontFace(given);
    given.fill(0);
    expect(Buffer.from(face.bytes).equals(file())).toBe(true);
  });

  it("is found again when HarfBuzz's memory grows (which empties every view into it)", () => {
    const face = new FontFace(file());
    const before = face.bytes;
    new hb.Blob(new Uint8Array(32 << 20)); // more than the memory holds: it grows
    expect(before.byteLength).toBe(0);
    expect(Buffer.from(face.bytes).equals(file())).toBe(true);
  });
});
