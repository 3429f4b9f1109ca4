import type { GlyphSource } from "../document/glyph-coverage.js";
import { fonts, type FontKey } from "../render/fonts.js";
import { CJK, fallbackFor, FAMILY_ORDER, sequenceFont, type FallbackFont, type FamilyId } from "./fallback-fonts.js";
import type { FontFace } from "./font-face.js";

/** A stretch of text set in one font: `name` is what the font is registered under in a document. */
export interface FontRun {
  text: string;
  name: string;
  font: FontFace;
}

// Marks, joiners, variation selectors, emoji modifiers and tags belong to the character before them: a
// shaping engine must see them in the same run (a conjunct, a ZWJ emoji sequence). So do controls (line
// breaks), which no font draws.
const ATTACHED = /[\p{M}\p{Cc}\p{Cf}\uFE00-\uFE0F\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/u;
// Digits, spaces and punctuation stay in the font of the text around them when it has them.
const NEUTRAL = /[\p{N}\p{P}\p{Z}\p{Sm}\p{Sc}\p{Sk}\s]/u;
const SPACE = /[\p{Z}\s]/u;
// An emoji sequence (a keycap, a flag, an emoji with its presentation selector, skin tone, tags or ZWJ
// partners): set as a whole in the one emoji font that has all of it, which shapes it into one glyph.
const EMOJI_PART = "\\p{Extended_Pictographic}(?:\\uFE0F|\\p{Emoji_Modifier}|[\\u{E0020}-\\u{E007F}])*";
const EMOJI_SEQUENCE = new RegExp(`[0-9#*]\\uFE0F?\\u20E3|\\p{Regional_Indicator}{2}|${EMOJI_PART}(?:\\u200D${EMOJI_PART})*`, "uy");

/**
 * Splits text into runs by font: the style's DejaVu face first, then the Noto fallbacks in `order`. Characters no font has are left in the run before them
 * (the document was checked with {@link hasGlyph} before rendering, so none are left by then).
 */
export function fontRuns(text: string, face: FontKey, order: readonly FamilyId[] = FAMILY_ORDER): FontRun[] {
  if (inOneFace(text, face)) return [{ text, name: face, font: fonts()[face] }];
  // Runs as [start, end) of text while scanning; their strings are cut once at the end.
  const runs: { start: number; end: number; name: string; font: FontFace }[] = [];
  const bold = face === "bold" || face === "boldItalic" || face === "monoBold";
  for (let i = 0; i < text.length; ) {
    const codePoint = text.codePointAt(i)!;
    const next = i + (codePoint > 0xffff ? 2 : 1);
    const char = text.slice(i, next);
    const last = runs.at(-1);
    // Only where an emoji can start: U+2000–2BFF (arrows, symbols, dingbats), four CJK symbols, U+1F000 on;
    // below U+2000 only a keycap (1️⃣) or ©️/®️, with U+FE0F or U+20E3 after it. Not for every ideograph.
    const after = text.charCodeAt(next);
    const sequence = mayStartEmoji(codePoint) || after === 0xfe0f || after === 0x20e3 ? emojiSequenceAt(text, i, next) : undefined;
    if (sequence) {
      if (last && last.name === sequence.font.name) last.end = sequence.end;
      else runs.push({ start: i, end: sequence.end, name: sequence.font.name, font: sequence.font.font });
      i = sequence.end;
      continue;
    }
    // Spaces go to DejaVu (pdfkit shapes word by word anyway; Noto Emoji's space is twice as wide).
    if (last && (ATTACHED.test(char) || (NEUTRAL.test(char) && !(SPACE.test(char) && last.name !== face) && last.font.hasGlyphForCodePoint(codePoint)))) {
      last.end = next;
    } else {
      // Punctuation after Chinese, Japanese or Korean takes that family's glyph (an ellipsis centred, quotes
      // and dashes full width) though it is in another of the family's files than the text before it.
      const family = last && NEUTRAL.test(char) && !SPACE.test(char) ? cjkFamilyOf(last.name) : undefined;
      const own = family ? fallbackFor(codePoint, bold, ALONE.get(family)!) : undefined;
      const chosen = own ?? primary(face, char, codePoint) ?? (ATTACHED.test(char) ? undefined : fallbackFor(codePoint, bold, order)) ?? last ?? { name: face, font: fonts()[face] };
      if (last && last.name === chosen.name) last.end = next;
      else runs.push({ start: i, end: next, name: chosen.name, font: chosen.font });
    }
    i = next;
  }
  return runs.map((r) => ({ text: text.slice(r.start, r.end), name: r.name, font: r.font }));
}

// One order array per family: fallbackFor remembers its choices per order array.
const ALONE = new Map(CJK.map((family) => [family, [family] as readonly FamilyId[]]));

/** The CJK family of a fallback font's name (`noto-sans-jp-12-400`), if it is one. */
function cjkFamilyOf(name: string): FamilyId | undefined {
  return CJK.find((family) => name.startsWith(`${family}-`));
}

const mayStartEmoji = (codePoint: number) =>
  codePoint >= 0x1f000 || (codePoint >= 0x2000 && codePoint < 0x2c00) || codePoint === 0x3030 || codePoint === 0x303d || codePoint === 0x3297 || codePoint === 0x3299;

/** The emoji sequence of more than one character starting at `start`, with the font to set it in. */
function emojiSequenceAt(text: string, start: number, afterFirst: number): { end: number; font: FallbackFont } | undefined {
  EMOJI_SEQUENCE.lastIndex = start;
  const match = EMOJI_SEQUENCE.exec(text);
  if (!match || match[0].length <= afterFirst - start) return undefined;
  const font = sequenceFont(match[0]);
  return font && { end: start + match[0].length, font };
}

const faceFonts = new Map<FontKey, Omit<FontRun, "text">>();

/** A DejaVu face as the font of a run, without its text (one object per face, for {@link useFont}-like callers). */
export function faceFont(face: FontKey): Omit<FontRun, "text"> {
  let font = faceFonts.get(face);
  if (!font) {
    font = { name: face, font: fonts()[face] };
    faceFonts.set(face, font);
  }
  return font;
}

// Scripts DejaVu has glyphs for but no shaping of the quality Noto's fonts have (Hebrew, Arabic, Lao): Noto sets them.
const NOTO_FIRST = /[\u0590-\u08FF\u0E80-\u0EFF\uFB1D-\uFDFF\uFE70-\uFEFC]/u;

/**
 * Whether all of `text` is set in the face itself (the common case, checked cheaply): Latin, Greek, Cyrillic and general punctuation the face has (a
 * character of another script, or one the face lacks, takes the long way).
 */
export function inOneFace(text: string, face: FontKey): boolean {
  const font = fonts()[face];
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) {
      // Line breaks and tabs are pdfkit's to handle; other controls take the long way.
      if (unit < 0x20 && unit !== 0x0a && unit !== 0x09 && unit !== 0x0d) return false;
      continue;
    }
    if (unit >= 0x0530 && (unit < 0x2000 || unit > 0x20cf)) return false;
    if ((unit >= 0x0300 && unit < 0x0370) || !font.hasGlyphForCodePoint(unit)) return false;
  }
  return true;
}

/** The DejaVu face for a character, if it has it. */
function primary(face: FontKey, char: string, codePoint: number): { name: string; font: FontFace } | undefined {
  if (NOTO_FIRST.test(char)) return undefined;
  const font = fonts()[face];
  return font.hasGlyphForCodePoint(codePoint) ? { name: face, font } : undefined;
}

/** Whether some shipped font can show `codePoint` in `face` (the check before rendering). */
export function hasGlyph(face: FontKey, codePoint: number): boolean {
  if (primary(face, String.fromCodePoint(codePoint), codePoint)) return true;
  return fallbackFor(codePoint, face === "bold" || face === "boldItalic" || face === "monoBold") !== undefined;
}

const FACES: readonly FontKey[] = ["regular", "bold", "italic", "boldItalic", "mono", "monoBold"];

let faces: Readonly<Record<FontKey, GlyphSource>> | undefined;

/**
 * Every face as one glyph source: DejaVu and the fallbacks together (what prepare checks text against).
 * The same object every time, so that what it answered is remembered across documents (document/prepare.ts).
 */
export function coverage(): Readonly<Record<FontKey, GlyphSource>> {
  faces ??= Object.fromEntries(FACES.map((face) => [face, { hasGlyphForCodePoint: (codePoint: number) => hasGlyph(face, codePoint) }])) as Record<FontKey, GlyphSource>;
  return faces;
}
