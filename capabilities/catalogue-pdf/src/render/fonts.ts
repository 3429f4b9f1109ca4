import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FontFace } from "../text/font-face.js";
import type { LatinTables } from "../text/simple-latin.js";
import { LATIN_TABLES } from "../gen/latin-tables.js";
import { shapedFace } from "../text/shaping.js";
import { embedOwnFonts } from "./embed-fonts.js";
import type { Doc } from "./doc.js";

/** The type faces a document uses; every run of text is set in one of them. */
export type FontKey = "regular" | "bold" | "italic" | "boldItalic" | "mono" | "monoBold";

// DejaVu (from the dejavu-fonts-ttf npm package, so the image carries it through `pnpm deploy`) covers
// Latin with diacritics, Greek, Cyrillic, Armenian and Georgian in every style we use.
export const FONT_FILES: Record<FontKey, string> = {
  regular: "DejaVuSans.ttf",
  bold: "DejaVuSans-Bold.ttf",
  italic: "DejaVuSans-Oblique.ttf",
  boldItalic: "DejaVuSans-BoldOblique.ttf",
  mono: "DejaVuSansMono.ttf",
  monoBold: "DejaVuSansMono-Bold.ttf",
};
const KEYS = Object.keys(FONT_FILES) as FontKey[];

export type FontSet = Readonly<Record<FontKey, FontFace>>;

const loaded = new Map<FontKey, FontFace>();
let set: FontSet | undefined;

/**
 * The DejaVu faces, each read on first use and then shared by every render (a letter never reads the
 * oblique and mono files: 2 MB less held). Text is shaped by HarfBuzz (text/shaping.ts).
 */
export function fonts(): FontSet {
  set ??= Object.defineProperties({}, Object.fromEntries(KEYS.map((key) => [key, { enumerable: true, get: () => face(key) }]))) as FontSet;
  return set;
}

/** Where the file of face `key` is. */
export function fontPath(key: FontKey): string {
  return join(dirname(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/package.json")), "ttf", FONT_FILES[key]);
}

function face(key: FontKey): FontFace {
  let font = loaded.get(key);
  if (!font) {
    const latinTables = JSON.parse(LATIN_TABLES[key] ?? "null") as LatinTables | null;
    font = shapedFace(readFileSync(fontPath(key)), undefined, { latinTables: latinTables ?? undefined });
    loaded.set(key, font);
  }
  return font;
}

/**
 * Registers the DejaVu faces with a document under their keys, each read when the document first selects
 * it, and embeds every font of ours the HarfBuzz way (render/embed-fonts.ts).
 */
export function registerFaces(doc: Doc): void {
  const registered = (doc as unknown as { _registeredFonts: Record<string, { src: unknown }> })._registeredFonts;
  for (let i = 0; i < KEYS.length; i++) {
    const key = KEYS[i]!;
    doc.registerFont(key, undefined as unknown as string);
    // pdfkit reads `src` when the font is first selected.
    Object.defineProperty(registered[key], "src", SOURCES[key]);
  }
  embedOwnFonts(doc);
}

/** Each face's `src` getter, the same for every document. */
const SOURCES = Object.fromEntries(KEYS.map((key) => [key, { get: () => face(key) }])) as Record<FontKey, PropertyDescriptor>;

/** The face for a run's style. */
export function fontKeyFor(style: { bold: boolean; italic: boolean; code: boolean }): FontKey {
  if (style.code) return style.bold ? "monoBold" : "mono";
  if (style.bold) return style.italic ? "boldItalic" : "bold";
  return style.italic ? "italic" : "regular";
}
