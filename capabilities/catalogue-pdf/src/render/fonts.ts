import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as fontkit from "fontkit";
import { shapeWithHarfBuzz } from "../text/shaping.js";

/** The type faces a document uses; every run of text is set in one of them. */
export type FontKey = "regular" | "bold" | "italic" | "boldItalic" | "mono" | "monoBold";

// DejaVu (from the dejavu-fonts-ttf npm package, so the image carries it through `pnpm deploy`) covers
// Latin with diacritics, Greek, Cyrillic, Armenian and Georgian in every style we use.
const FILES: Record<FontKey, string> = {
  regular: "DejaVuSans.ttf",
  bold: "DejaVuSans-Bold.ttf",
  italic: "DejaVuSans-Oblique.ttf",
  boldItalic: "DejaVuSans-BoldOblique.ttf",
  mono: "DejaVuSansMono.ttf",
  monoBold: "DejaVuSansMono-Bold.ttf",
};

export type FontSet = Readonly<Record<FontKey, fontkit.Font>>;

let loaded: FontSet | undefined;

/**
 * The parsed DejaVu faces, loaded once and shared by every render (pdfkit accepts a fontkit font and keeps
 * its per-document subset itself), which saves parsing 2 MB of TrueType on every call. Text is shaped by
 * HarfBuzz (see text/shaping.ts), which also maps each glyph to the characters it stood for where it was
 * drawn (a component glyph such as the "c" of "ç" no longer loses its character).
 */
export function fonts(): FontSet {
  if (loaded) return loaded;
  const dir = join(dirname(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/package.json")), "ttf");
  loaded = Object.fromEntries(
    Object.entries(FILES).map(([key, file]) => {
      const bytes = readFileSync(join(dir, file));
      const font = fontkit.create(bytes);
      if (!("hasGlyphForCodePoint" in font)) throw new Error(`${file} is a font collection, expected one font`);
      shapeWithHarfBuzz(font, bytes);
      return [key, font];
    }),
  ) as unknown as FontSet;
  return loaded;
}

/** The face for a run's style. */
export function fontKeyFor(style: { bold: boolean; italic: boolean; code: boolean }): FontKey {
  if (style.code) return style.bold ? "monoBold" : "mono";
  if (style.bold) return style.italic ? "boldItalic" : "bold";
  return style.italic ? "italic" : "regular";
}
