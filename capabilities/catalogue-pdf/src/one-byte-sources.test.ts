import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { asciiSource } from "@selu-catalogue/kit/one-byte-sources";
import { describe, expect, it } from "vitest";

// The packages pdf leaves outside its bundle, which the production entrypoint has loaded through the kit's
// hook (keepSourcesOneByte, tested in the kit): each holds characters outside ASCII that would make V8 keep
// its source at two bytes a character. The end-to-end tests run that entrypoint: they show the packages work
// loaded that way.
const require = createRequire(import.meta.url);
const PACKAGES = {
  pdfkit: require.resolve("pdfkit").replace(/pdfkit\.js$/, "pdfkit.node.mjs"),
  harfbuzzjs: require.resolve("harfbuzzjs"),
  "pdfjs-dist": require.resolve("pdfjs-dist/legacy/build/pdf.mjs"),
};

describe("the packages left outside the bundle", () => {
  it.each(Object.entries(PACKAGES))("%s's source is loaded as ASCII", (_, path) => {
    const bytes = readFileSync(path);
    expect(bytes.some((byte) => byte > 0x7f)).toBe(true);
    const ascii = asciiSource(bytes);
    expect(ascii?.every((byte) => byte <= 0x7f)).toBe(true);
    expect(ascii!.length).toBeGreaterThan(bytes.length);
  });
});
