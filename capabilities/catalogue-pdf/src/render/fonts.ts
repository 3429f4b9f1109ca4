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

/**
 * Scripts that get a font instance of their own. DejaVu draws Latin "c" and Cyrillic "с", "A" and Greek
 * "Α", with one glyph; a PDF font maps each glyph to one character for copying and searching, and fontkit
 * caches a glyph with the character it first met. One instance per script keeps both mappings right.
 */
export const SCRIPTS = ["latin", "greek", "cyrillic"] as const;
export type Script = (typeof SCRIPTS)[number];

let loaded: Readonly<Record<Script, FontSet>> | undefined;

/**
 * The parsed fonts, loaded once and shared by every render (pdfkit accepts a fontkit font and keeps its
 * per-document subset itself), which saves parsing 2 MB of TrueType on every call. The instances of one
 * face share the file's bytes.
 */
export function fontInstances(): Readonly<Record<Script, FontSet>> {
  if (loaded) return loaded;
  const dir = join(dirname(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/package.json")), "ttf");
  const files = Object.entries(FILES).map(([key, file]) => [key, file, readFileSync(join(dir, file))] as const);
  const set = () =>
    Object.fromEntries(
      files.map(([key, file, bytes]) => {
        const font = fontkit.create(bytes);
        if (!("hasGlyphForCodePoint" in font)) throw new Error(`${file} is a font collection, expected one font`);
        return [key, keepGlyphCharacters(font)];
      }),
    ) as unknown as FontSet;
  loaded = { latin: set(), greek: set(), cyrillic: set() };
  // pdfkit treats two fonts with one PostScript name as one font (and then re-opens it on every switch):
  // name the other scripts' instances apart.
  for (const script of ["greek", "cyrillic"] as const) {
    for (const font of Object.values(loaded[script])) {
      Object.defineProperty(font, "postscriptName", { value: `${font.postscriptName}-${script === "greek" ? "Greek" : "Cyrillic"}` });
    }
  }
  return loaded;
}

/**
 * fontkit caches each glyph with the characters of its first request. Embedding "ç" (a composite of "c"
 * and a cedilla) asks for the component "c" with no characters, and every later "c" then reaches pdfkit
 * without one: the PDF would copy and search as "Züri h". Fill in the characters when a later request
 * brings them.
 */
function keepGlyphCharacters(font: fontkit.Font): fontkit.Font {
  const getGlyph = font.getGlyph.bind(font);
  font.getGlyph = (id: number, characters: number[] = []) => {
    const glyph = getGlyph(id, characters);
    if (glyph && glyph.codePoints.length === 0 && characters.length > 0) (glyph as { codePoints: number[] }).codePoints = characters;
    return glyph;
  };
  return font;
}

/** The faces (their Latin instances: same glyphs and metrics as the others), for coverage checks and measuring. */
export function fonts(): FontSet {
  return fontInstances().latin;
}

/** The name a face's instance for a script is registered under in a document. */
export function fontName(face: FontKey, script: Script): string {
  return script === "latin" ? face : `${face}-${script}`;
}

const GREEK = /[\u0370-\u03FF\u1F00-\u1FFF]/u;
const CYRILLIC = /[\u0400-\u052F\u1C80-\u1C8F\u2DE0-\u2DFF\uA640-\uA69F]/u;
const LETTER = /\p{L}/u;

/**
 * Splits text into stretches of one script. Characters that belong to no script (digits, spaces,
 * punctuation) stay with the stretch before them, so a Greek sentence is one stretch, not many.
 */
export function splitByScript(text: string): { text: string; script: Script }[] {
  const parts: { text: string; script: Script }[] = [];
  for (const char of text) {
    const script: Script | undefined = GREEK.test(char) ? "greek" : CYRILLIC.test(char) ? "cyrillic" : LETTER.test(char) ? "latin" : undefined;
    const last = parts.at(-1);
    if (last && (script === undefined || script === last.script)) last.text += char;
    else if (!last && script === undefined) parts.push({ text: char, script: "latin" });
    else parts.push({ text: char, script: script ?? "latin" });
  }
  return parts;
}

/** The face for a run's style. */
export function fontKeyFor(style: { bold: boolean; italic: boolean; code: boolean }): FontKey {
  if (style.code) return style.bold ? "monoBold" : "mono";
  if (style.bold) return style.italic ? "boldItalic" : "bold";
  return style.italic ? "italic" : "regular";
}
