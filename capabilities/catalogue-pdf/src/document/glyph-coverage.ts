/** Anything that can tell whether it has a glyph for a code point (a font, or all shipped fonts together). */
export interface GlyphSource {
  hasGlyphForCodePoint(codePoint: number): boolean;
}

// Characters that never need a glyph: layout controls we handle or that draw nothing (joiners and
// variation selectors are read by the shaping engine), and bidi controls.
function invisible(c: number): boolean {
  return (
    c === 0x09 || c === 0x0a || c === 0x0d || c === 0xad || (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2060 && c <= 0x2069) || (c >= 0xfe00 && c <= 0xfe0f) || c === 0xfeff
  );
}

/** A character no shipped font can show. */
export interface MissingGlyph {
  char: string;
  codePoint: number;
}

/**
 * The distinct characters of `text` that `font` has no glyph for, in order of first appearance. Used
 * before rendering so that nothing is drawn as empty boxes. Every character of every document passes
 * here: read by code point, without making a string or a set of each (`font` answers fast when asked
 * again, see document/prepare.ts).
 */
export function missingGlyphs(text: string, font: GlyphSource): MissingGlyph[] {
  const missing: MissingGlyph[] = [];
  let reported: Set<number> | undefined;
  for (let i = 0; i < text.length; i++) {
    const codePoint = text.codePointAt(i)!;
    if (codePoint > 0xffff) i++;
    if (invisible(codePoint) || font.hasGlyphForCodePoint(codePoint)) continue;
    reported ??= new Set();
    if (reported.has(codePoint)) continue;
    reported.add(codePoint);
    missing.push({ char: String.fromCodePoint(codePoint), codePoint });
  }
  return missing;
}

/** Names missing characters for an error message: `"ᠮ" (U+182E, Mongolian script), "" (U+E000, private use)`. */
export function describeMissing(missing: readonly MissingGlyph[], max = 8): string {
  const named = missing.slice(0, max).map((m) => `${JSON.stringify(m.char)} (U+${m.codePoint.toString(16).toUpperCase().padStart(4, "0")}, ${kindOf(m.char)})`);
  if (missing.length > max) named.push(`and ${missing.length - max} more`);
  return named.join(", ");
}

// Scripts a model may meet that no shipped font covers, named so the user knows what to change.
const SCRIPTS = [
  "Ethiopic",
  "Khmer",
  "Lao",
  "Myanmar",
  "Sinhala",
  "Tibetan",
  "Mongolian",
  "Oriya",
  "Syriac",
  "Thaana",
  "Nko",
  "Cherokee",
  "Canadian_Aboriginal",
  "Yi",
  "Javanese",
  "Balinese",
  "Sundanese",
  "Tifinagh",
  "Vai",
  "Adlam",
  "Coptic",
  "Glagolitic",
  "Runic",
  "Ogham",
  "Gothic",
  "Samaritan",
  "Mandaic",
  "Tai_Le",
  "New_Tai_Lue",
  "Tai_Tham",
  "Tai_Viet",
  "Cham",
  "Buginese",
  "Batak",
  "Lepcha",
  "Ol_Chiki",
  "Meetei_Mayek",
  "Chakma",
  "Linear_B",
  "Cuneiform",
  "Egyptian_Hieroglyphs",
  "Hangul",
  "Han",
  "Hiragana",
  "Katakana",
  "Bopomofo",
  "Arabic",
  "Hebrew",
  "Braille",
].map((name) => [name.replace(/_/g, " ").replace("Nko", "N'Ko"), new RegExp(`\\p{Script=${name}}`, "u")] as const);

/** The kind of a character: its script, or what it is when it has none. */
function kindOf(char: string): string {
  for (const [name, test] of SCRIPTS) if (test.test(char)) return `${name} script`;
  if (/\p{Co}/u.test(char)) return "private use";
  if (/\p{Cn}/u.test(char)) return "unassigned";
  if (/\p{Extended_Pictographic}/u.test(char)) return "emoji";
  if (/\p{S}/u.test(char)) return "symbol";
  if (/\p{C}/u.test(char)) return "control";
  return "character";
}
