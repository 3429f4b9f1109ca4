import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FontFace } from "./font-face.js";
import { shapedFace } from "./shaping.js";
import { woffToSfnt } from "./woff.js";

/**
 * The Noto families (from the @fontsource npm packages, OFL-1.1) that set what DejaVu can't: each is split
 * by Unicode range into files, and a file is read only when a document needs one of its characters.
 * `subsets` names the parts used ("n" for every numbered part: CJK and emoji come in ~100 slices);
 * `bold` says whether a bold file ships (otherwise bold text uses the regular one).
 */
const FAMILIES = [
  { id: "noto-sans-arabic", subsets: ["arabic"], bold: true },
  { id: "noto-sans-hebrew", subsets: ["hebrew"], bold: true },
  { id: "noto-sans-devanagari", subsets: ["devanagari"], bold: true },
  { id: "noto-sans-bengali", subsets: ["bengali"], bold: true },
  { id: "noto-sans-tamil", subsets: ["tamil"], bold: true },
  { id: "noto-sans-telugu", subsets: ["telugu"], bold: true },
  { id: "noto-sans-gujarati", subsets: ["gujarati"], bold: true },
  { id: "noto-sans-gurmukhi", subsets: ["gurmukhi"], bold: true },
  { id: "noto-sans-kannada", subsets: ["kannada"], bold: true },
  { id: "noto-sans-malayalam", subsets: ["malayalam"], bold: true },
  { id: "noto-sans-thai", subsets: ["thai"], bold: true },
  { id: "noto-sans-oriya", subsets: ["oriya"], bold: true },
  { id: "noto-sans-sinhala", subsets: ["sinhala"], bold: true },
  { id: "noto-sans-lao", subsets: ["lao"], bold: true },
  { id: "noto-sans-khmer", subsets: ["khmer"], bold: true },
  { id: "noto-sans-myanmar", subsets: ["myanmar"], bold: true },
  { id: "noto-sans-sc", subsets: ["n"], bold: false },
  { id: "noto-sans-tc", subsets: ["n"], bold: false },
  { id: "noto-sans-jp", subsets: ["n"], bold: false },
  { id: "noto-sans-kr", subsets: ["n"], bold: false },
  { id: "noto-emoji", subsets: ["n"], bold: false },
  // After CJK: Yi's and Tibetan's files also claim CJK punctuation and brackets.
  { id: "noto-sans-ethiopic", subsets: ["ethiopic"], bold: true },
  { id: "noto-serif-tibetan", subsets: ["tibetan"], bold: true },
  { id: "noto-sans-thaana", subsets: ["thaana"], bold: true },
  { id: "noto-sans-syriac", subsets: ["syriac"], bold: true },
  { id: "noto-sans-nko", subsets: ["nko"], bold: false },
  { id: "noto-sans-adlam", subsets: ["adlam"], bold: true },
  { id: "noto-sans-tifinagh", subsets: ["tifinagh"], bold: false },
  { id: "noto-sans-canadian-aboriginal", subsets: ["canadian-aboriginal"], bold: true },
  { id: "noto-sans-cherokee", subsets: ["cherokee"], bold: true },
  { id: "noto-sans-ol-chiki", subsets: ["ol-chiki"], bold: true },
  { id: "noto-sans-meetei-mayek", subsets: ["meetei-mayek"], bold: true },
  { id: "noto-sans-vai", subsets: ["vai"], bold: false },
  { id: "noto-sans-yi", subsets: ["yi"], bold: false },
  // Last, for what DejaVu and the scripts' families lack: newer currency signs (₼ ₾ ₿ ⃀) from Noto Sans,
  // technical symbols, arrows and dingbats (⌖ ⏻ ⮕ 🗸) from Noto Sans Symbols and Symbols 2.
  { id: "noto-sans", subsets: ["latin-ext"], bold: true },
  { id: "noto-sans-symbols", subsets: ["symbols"], bold: true },
  { id: "noto-sans-symbols-2", subsets: ["symbols"], bold: false },
] as const;

export type FamilyId = (typeof FAMILIES)[number]["id"];

/** One file of a family: the characters it claims (from the package's unicode.json) and where it is. */
interface Slice {
  family: FamilyId;
  ranges: readonly (readonly [number, number])[];
  path: (bold: boolean) => string;
  bold: boolean;
}

/** A parsed fallback font, registered in a document under `name`. */
export interface FallbackFont {
  name: string;
  font: FontFace;
}

let slices: Slice[] | undefined;
const parsed = new Map<string, FallbackFont>();

function allSlices(): Slice[] {
  if (slices) return slices;
  const require = createRequire(import.meta.url);
  slices = FAMILIES.flatMap((family) => {
    const dir = dirname(require.resolve(`@fontsource/${family.id}/package.json`));
    const unicode = JSON.parse(readFileSync(join(dir, "unicode.json"), "utf8")) as Record<string, string>;
    return Object.entries(unicode)
      .filter(([key]) => (family.subsets as readonly string[]).includes(key.startsWith("[") ? "n" : key))
      .map(([key, ranges]) => {
        const part = key.replace(/^\[|\]$/g, "");
        return {
          family: family.id,
          ranges: parseRanges(ranges),
          bold: family.bold,
          path: (bold: boolean) => join(dir, "files", `${family.id}-${part}-${bold && family.bold ? 700 : 400}-normal.woff`),
        };
      });
  });
  return slices;
}

/** "U+0600-06FF,U+200C" → [[0x600, 0x6ff], [0x200c, 0x200c]]. */
function parseRanges(css: string): [number, number][] {
  return css.split(",").map((part) => {
    const [from, to] = part.trim().replace(/^U\+/i, "").split("-");
    return [Number.parseInt(from!, 16), Number.parseInt(to ?? from!, 16)];
  });
}

/**
 * The fallback font for a character, or undefined when no shipped font has it. Families are tried in
 * `order` (the CJK family for the document's language first); files are parsed on first use and kept.
 */
export function fallbackFor(codePoint: number, bold: boolean, order: readonly FamilyId[] = FAMILY_ORDER): FallbackFont | undefined {
  let known = chosen.get(order);
  if (!known) {
    known = new Map();
    chosen.set(order, known);
  }
  const key = bold ? -codePoint - 1 : codePoint;
  let font = known.get(key);
  if (font === undefined) {
    font = search(codePoint, bold, order) ?? null;
    if (known.size >= MAX_REMEMBERED) known.clear();
    known.set(key, font);
  }
  return font ?? undefined;
}

/**
 * The emoji font that has every character of an emoji sequence (a keycap, a flag, a skin tone, a ZWJ
 * sequence), so that one shaping run turns it into its one glyph: the emoji family is split into files
 * by Unicode range, and a sequence's characters looked up one by one may come from different files (a
 * technologist's 💻 from another file than her 👩🏽). Undefined when no file has them all.
 */
export function sequenceFont(sequence: string): FallbackFont | undefined {
  let font = sequences.get(sequence);
  if (font === undefined) {
    const codePoints = Array.from(sequence, (char) => char.codePointAt(0)!);
    const slice = allSlices().find((s) => s.family === "noto-emoji" && codePoints.every((codePoint) => covers(s.ranges, codePoint)));
    const candidate = slice && open(slice.path(false));
    font = candidate && codePoints.every((codePoint) => candidate.font.hasGlyphForCodePoint(codePoint)) ? candidate : null;
    if (sequences.size >= MAX_REMEMBERED) sequences.clear();
    sequences.set(sequence, font);
  }
  return font ?? undefined;
}

const sequences = new Map<string, FallbackFont | null>();

// The font found for each character (null: none), per family order: a CJK document asks for thousands.
const chosen = new WeakMap<readonly FamilyId[], Map<number, FallbackFont | null>>();
const MAX_REMEMBERED = 50_000;

function search(codePoint: number, bold: boolean, order: readonly FamilyId[]): FallbackFont | undefined {
  const candidates = allSlices().filter((s) => covers(s.ranges, codePoint));
  candidates.sort((a, b) => order.indexOf(a.family) - order.indexOf(b.family));
  for (const slice of candidates) {
    const font = open(slice.path(bold));
    if (font.font.hasGlyphForCodePoint(codePoint)) return font;
  }
  return undefined;
}

// An indexed loop, not `some` with a destructured range: the process runs without TurboFan (issue 17), and
// Maglev keeps the destructuring's iterator, which made a CJK document's first search 2x slower.
function covers(ranges: readonly (readonly [number, number])[], codePoint: number): boolean {
  for (let i = 0; i < ranges.length; i++) if (codePoint >= ranges[i]![0] && codePoint <= ranges[i]![1]) return true;
  return false;
}

/**
 * Whether a run's font is a fallback file of the regular weight: bold text in one is in a family that
 * ships no bold (CJK, emoji, N'Ko, Tifinagh, Vai, Yi), since a family that has one gives bold text its
 * bold file ({@link open} names each font after its file, weight last).
 */
export function isRegularWeight(name: string): boolean {
  return name.endsWith("-400");
}

function open(path: string): FallbackFont {
  let font = parsed.get(path);
  if (!font) {
    const name = path.slice(path.lastIndexOf("/") + 1, -"-normal.woff".length);
    font = { name, font: shapedFace(woffToSfnt(readFileSync(path)), name) };
    parsed.set(path, font);
  }
  return font;
}

/** The families in their default order. */
export const FAMILY_ORDER: readonly FamilyId[] = FAMILIES.map((f) => f.id);

/** The Chinese, Japanese and Korean families. */
export const CJK: readonly FamilyId[] = ["noto-sans-sc", "noto-sans-tc", "noto-sans-jp", "noto-sans-kr"];

/**
 * The family order for a document language: Han characters take the shapes of the language's own
 * convention (Japanese, Korean, Traditional Chinese), Simplified Chinese otherwise.
 */
export function familyOrder(language: string | undefined): readonly FamilyId[] {
  const tag = (language ?? "").toLowerCase();
  const first: FamilyId | undefined = tag.startsWith("ja") ? "noto-sans-jp" : tag.startsWith("ko") ? "noto-sans-kr" : traditionalChinese(tag) ? "noto-sans-tc" : undefined;
  if (!first) return FAMILY_ORDER;
  let order = orders.get(first);
  if (!order) {
    // The CJK families keep their place (before the families that also claim CJK punctuation), led by the language's.
    order = FAMILY_ORDER.flatMap((f) => (f === CJK[0] ? [first, ...CJK.filter((c) => c !== first)] : CJK.includes(f) ? [] : [f]));
    orders.set(first, order);
  }
  return order;
}

/** Whether a BCP 47 tag is of Chinese written in Traditional characters (Taiwan, Hong Kong, Macao, Hant). */
export function traditionalChinese(language: string | undefined): boolean {
  return /^zh-(tw|hk|mo|hant)/i.test(language ?? "");
}

// One array per order, so the choice of fallback can be remembered per order (see fallbackFor).
const orders = new Map<FamilyId, readonly FamilyId[]>();

/**
 * Throws naming the first fallback font file that is missing (an image built without them): each family's
 * Unicode ranges and the regular and bold files of its first slice, without reading the fonts (that waits
 * for a document). A family of one named slice is checked by its file names alone; only the CJK and
 * emoji families' ranges are read, to find their first numbered slice.
 */
export function checkFallbackFiles(): void {
  const require = createRequire(import.meta.url);
  for (const family of FAMILIES) {
    const dir = dirname(require.resolve(`@fontsource/${family.id}/package.json`));
    const unicode = join(dir, "unicode.json");
    if (!existsSync(unicode)) throw new Error(`font ranges ${unicode} are missing`);
    const [subset] = family.subsets;
    const key = subset !== "n" ? subset : Object.keys(JSON.parse(readFileSync(unicode, "utf8")) as Record<string, string>).find((k) => k.startsWith("["));
    if (!key) throw new Error(`${family.id}: no ${family.subsets.join(", ")} slice in unicode.json`);
    for (const weight of family.bold ? [400, 700] : [400]) {
      const file = join(dir, "files", `${family.id}-${key.replace(/^\[|\]$/g, "")}-${weight}-normal.woff`);
      if (!existsSync(file)) throw new Error(`font file ${file} is missing`);
    }
  }
}
