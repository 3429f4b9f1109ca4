import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as fontkit from "fontkit";

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
 * The parsed fonts, loaded once and shared by every render (pdfkit accepts a fontkit font and keeps its
 * per-document subset itself), which saves parsing 2 MB of TrueType on every call.
 */
export function fonts(): FontSet {
  if (loaded) return loaded;
  const dir = join(dirname(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/package.json")), "ttf");
  const entries = Object.entries(FILES).map(([key, file]) => {
    const font = fontkit.create(readFileSync(join(dir, file)));
    if (!("hasGlyphForCodePoint" in font)) throw new Error(`${file} is a font collection, expected one font`);
    return [key, font] as const;
  });
  loaded = Object.fromEntries(entries) as unknown as FontSet;
  return loaded;
}

/** The face for a run's style. */
export function fontKeyFor(style: { bold: boolean; italic: boolean; code: boolean }): FontKey {
  if (style.code) return style.bold ? "monoBold" : "mono";
  if (style.bold) return style.italic ? "boldItalic" : "bold";
  return style.italic ? "italic" : "regular";
}
