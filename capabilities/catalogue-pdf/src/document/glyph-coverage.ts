/** Anything that can tell whether it has a glyph for a code point (a fontkit font). */
export interface GlyphSource {
  hasGlyphForCodePoint(codePoint: number): boolean;
}

// Laid out left to right by pdfkit, these scripts would come out reversed: refuse them rather than print
// something wrong. Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, and their presentation forms.
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;

// Characters that never need a glyph: layout controls we handle or that draw nothing.
const INVISIBLE = new Set([0x09, 0x0a, 0x0d, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0xad]);

/** A character a font can't show. */
export interface MissingGlyph {
  char: string;
  codePoint: number;
  rightToLeft: boolean;
}

/**
 * The distinct characters of `text` that `font` has no glyph for (or that belong to a right-to-left
 * script), in order of first appearance. Used before rendering so that nothing is drawn as empty boxes.
 */
export function missingGlyphs(text: string, font: GlyphSource): MissingGlyph[] {
  const seen = new Set<number>();
  const missing: MissingGlyph[] = [];
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (seen.has(codePoint) || INVISIBLE.has(codePoint)) continue;
    seen.add(codePoint);
    const rightToLeft = RIGHT_TO_LEFT.test(char);
    if (rightToLeft || !font.hasGlyphForCodePoint(codePoint)) missing.push({ char, codePoint, rightToLeft });
  }
  return missing;
}

/** Names missing characters for an error message: `"漢" (U+6F22), "😀" (U+1F600)`. */
export function describeMissing(missing: readonly MissingGlyph[], max = 8): string {
  const named = missing.slice(0, max).map((m) => `${JSON.stringify(m.char)} (U+${m.codePoint.toString(16).toUpperCase().padStart(4, "0")})`);
  if (missing.length > max) named.push(`and ${missing.length - max} more`);
  return named.join(", ");
}
