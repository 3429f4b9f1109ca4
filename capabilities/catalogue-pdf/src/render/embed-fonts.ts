import { type CidSubset, FontFace, VARIANT } from "../text/font-face.js";
import { subsetFont } from "./font-subset.js";
import type { Doc } from "./doc.js";
import { deflate, packed, type Packed } from "./deflate.js";
import { endSerialised } from "./pdf-objects.js";
import type { PdfRef } from "./pdf-ref.js";
import { hex4, serialize } from "./pdf-values.js";
import { ownMemory } from "@selu-catalogue/kit";

/** What pdfkit's EmbeddedFont holds for one font of one document (the fields its `embed` reads). */
interface EmbeddedFont {
  font: unknown;
  id: string;
  subset: CidSubset;
  scale: number;
  ascender: number;
  descender: number;
  widths: number[];
  unicode: number[][];
  dictionary?: PdfRef;
  embed(): void;
}

/** A font program ready to embed: deflated once, the glyph number each original glyph has in it, its subset tag. */
export interface FontFile {
  deflated: Buffer;
  length: number;
  newId: ReadonlyMap<number, number>;
  tag: string;
}

/** The streams of one font in one document: its program (deflated), its codes' glyphs and their text. */
interface Embedding {
  file: FontFile;
  cidToGid: Packed;
  toUnicode: Packed;
  /** The codes' widths as last written, and their /W array serialised (a number each: most of the font's dictionaries). */
  widths?: { of: readonly number[]; serialised: string };
}

// Per font: font programs by glyph set, and whole embeddings by the ids drawn in code order. A document
// that draws the same glyphs as an earlier one (the same letter again, a form filled in) embeds the same
// bytes without subsetting, deflating or writing its maps again.
const files = new WeakMap<FontFace, Map<string, FontFile>>();
const embeddings = new WeakMap<FontFace, Map<string, Embedding>>();
// Per font: its descriptor's entries by subset name (a tag per glyph set: as many as the font programs kept).
const descriptors = new WeakMap<FontFace, Map<string, string>>();
const MAX_CACHED = 16;

/**
 * Makes pdfkit embed the document's fonts of ours (FontFace) our way: each font program cut to the glyphs
 * drawn (render/font-subset.ts), deflated, and kept for the next document with the same glyphs. The
 * codes pdfkit wrote stay as they are (one per glyph and meaning, see text/shaping.ts) and a CIDToGIDMap
 * maps them to the subset's glyphs, so a glyph standing for two characters is embedded once. Widths are
 * pdfkit's.
 */
export function embedOwnFonts(doc: Doc): void {
  const target = doc as unknown as { end: () => unknown; _fontFamilies: Record<string, EmbeddedFont> };
  const end = target.end.bind(doc);
  target.end = () => {
    for (const font of Object.values(target._fontFamilies)) {
      if (font.font instanceof FontFace) font.embed = () => embed(doc, font, font.font as FontFace);
    }
    return end();
  };
}

function embed(doc: Doc, font: EmbeddedFont, face: FontFace): void {
  const ref = (data: Record<string, unknown>) => (doc as unknown as { ref(data: Record<string, unknown>): PdfRef }).ref(data);
  // Streams packed already (render/deflate.ts): pdfkit would deflate one without a Filter again.
  const stream = ({ data, deflated }: Packed, entries: Record<string, unknown> = {}) => {
    const written = ref(deflated ? { Filter: "FlateDecode", ...entries } : entries);
    written.compress = false;
    written.end(data);
    return written;
  };
  // The seed's codes are in the subset whether drawn or not: their widths and text as if drawn.
  for (const glyph of face.seed) {
    const code = font.subset.includeGlyph(glyph.id);
    font.widths[code] ??= glyph.advanceWidth * font.scale;
    font.unicode[code] ??= glyph.codePoints;
  }
  const found = embedding(face, font.subset.ids, font.unicode);
  const { file, cidToGid, toUnicode } = found;
  const name = `${file.tag}+${face.postscriptName.replaceAll(" ", "_")}`;
  const fontFile = stream({ data: file.deflated, deflated: true }, { Length1: file.length });
  const descriptor = ref({});
  endSerialised(descriptor, `${descriptorOf(face, font, name)}\n/FontFile2 ${fontFile}\n>>`);
  // Written in order: the map's stream is numbered before the dictionary that refers to it, as pdfkit would.
  const map = stream(cidToGid);
  const descendant = ref({});
  endSerialised(
    descendant,
    `<<\n/Type /Font\n/Subtype /CIDFontType2\n/BaseFont /${name}\n/CIDSystemInfo <<\n/Registry (Adobe)\n/Ordering (Identity)\n/Supplement 0\n>>\n/FontDescriptor ${descriptor}\n/W ${widthsOf(found, font.widths)}\n/CIDToGIDMap ${map}\n>>`,
  );
  font.dictionary!.data = {
    Type: "Font",
    Subtype: "Type0",
    BaseFont: name,
    Encoding: "Identity-H",
    DescendantFonts: [descendant],
    ToUnicode: stream(toUnicode),
  };
  font.dictionary!.end();
}

/**
 * The font descriptor's entries but the font file (and its closing `>>`), serialised as pdfkit would. They
 * are the face's own (pdfkit derives the scale, ascender and descender from the face), so each name's
 * (a subset tag and the face's) is kept with the face.
 */
function descriptorOf(face: FontFace, font: EmbeddedFont, name: string): string {
  const cache = cacheOf(descriptors, face);
  let found = cache.get(name);
  if (found === undefined) {
    const { scale } = font;
    const entries = serialize({
      Type: "FontDescriptor",
      FontName: name,
      Flags: face.flags,
      FontBBox: [face.bbox.minX * scale, face.bbox.minY * scale, face.bbox.maxX * scale, face.bbox.maxY * scale],
      ItalicAngle: face.italicAngle,
      Ascent: font.ascender,
      Descent: font.descender,
      CapHeight: (face.capHeight || face.ascent) * scale,
      XHeight: (face.xHeight || 0) * scale,
      StemV: 0,
    });
    found = entries.slice(0, -"\n>>".length);
  }
  return remember(cache, name, found);
}

/**
 * The /W array for codes 0… of `widths`, serialised as pdfkit would. The same glyphs in the same order have
 * the same widths, so it is kept with their embedding; compared first all the same, as that costs nothing.
 */
function widthsOf(found: Embedding, widths: readonly number[]): string {
  const kept = found.widths;
  if (kept && sameNumbers(kept.of, widths)) return kept.serialised;
  found.widths = { of: [...widths], serialised: serialize([0, widths]) };
  return found.widths.serialised;
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  // A loop, not `every`: a callback would be given each width boxed.
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The deflated streams for a document that drew `ids` (in code order) standing for `unicode` (by code). */
function embedding(face: FontFace, ids: readonly number[], unicode: readonly number[][]): Embedding {
  const cache = cacheOf(embeddings, face);
  // A glyph id (variants included) always stands for the same characters (text/shaping.ts), so the ids
  // in code order determine all three streams.
  const key = ids.join(",");
  let found = cache.get(key);
  if (!found) {
    const file = fontFile(face, ids);
    const map = Buffer.alloc(ids.length * 2);
    ids.forEach((id, cid) => map.writeUInt16BE(file.newId.get(id % VARIANT)!, cid * 2));
    // Kept across documents, so in memory of their own (zlib's output of a few KiB is a view into a 64 KiB
    // slab, a short string's bytes one into Buffer's 8 KiB pool). A letter's two maps are left undeflated:
    // zlib's fixed cost (30-40 µs each) would outweigh the few hundred bytes it saves.
    found = { file, cidToGid: kept(packed(map)), toUnicode: kept(packed(Buffer.from(toUnicodeCmap(unicode), "latin1"))) };
  }
  return remember(cache, key, found);
}

const kept = ({ data, deflated }: Packed): Packed => ({ data: ownMemory(data), deflated });

/** The font program for `ids` (any order, repeats and variants allowed), from the cache when it can. */
export function fontFile(face: FontFace, ids: readonly number[]): FontFile {
  const glyphs = [...new Set(ids.map((id) => id % VARIANT))].sort((a, b) => a - b);
  const cache = cacheOf(files, face);
  const key = glyphs.join(",");
  let file = cache.get(key);
  if (!file) {
    const subset = subsetFont(face.bytes, glyphs);
    file = { deflated: ownMemory(deflate(subset.bytes)), length: subset.bytes.byteLength, newId: subset.newId, tag: subsetTag(`${face.postscriptName}:${key}`) };
  }
  return remember(cache, key, file);
}

/**
 * A subset's tag (PDF 32000-1, 9.6.4): six capitals from its face and glyphs (FNV-1a), so the different
 * subsets of one font in a file (documents merged into one) have different names, and the same glyphs
 * the same name. pdfkit's tag follows the font's number in the document (F1 → BZZZZZ): every document's
 * first font had the same one, whatever its glyphs.
 */
export function subsetTag(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  let n = (hash >>> 0) % 26 ** 6;
  let tag = "";
  for (let i = 0; i < 6; i++, n = Math.floor(n / 26)) tag += String.fromCharCode(65 + (n % 26));
  return tag;
}

function cacheOf<T>(caches: WeakMap<FontFace, Map<string, T>>, face: FontFace): Map<string, T> {
  let cache = caches.get(face);
  if (!cache) {
    cache = new Map();
    caches.set(face, cache);
  }
  return cache;
}

/** Stores `value` as the most recently used (last), dropping the oldest past MAX_CACHED. */
function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  cache.delete(key);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}

/**
 * The ToUnicode CMap (PDF 32000-1, 9.10.3) for codes 0… standing for `unicode[code]` (UTF-16, so copied
 * text comes out as written), in ranges of 256 codes as pdfkit writes it.
 */
export function toUnicodeCmap(unicode: readonly number[][]): string {
  const entries = unicode.map((codePoints) => {
    // The characters' UTF-16 units, a space between each.
    const text = String.fromCodePoint(...codePoints);
    let entry = "<";
    for (let i = 0; i < text.length; i++) entry += i === 0 ? hex4(text.charCodeAt(i)) : ` ${hex4(text.charCodeAt(i))}`;
    return `${entry}>`;
  });
  const ranges: string[] = [];
  for (let start = 0; start < entries.length; start += 256) {
    const end = Math.min(start + 256, entries.length);
    ranges.push(`<${hex4(start)}> <${hex4(end - 1)}> [${entries.slice(start, end).join(" ")}]`);
  }
  return `/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo <<
  /Registry (Adobe)
  /Ordering (UCS)
  /Supplement 0
>> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000><ffff>
endcodespacerange
${ranges.length} beginbfrange
${ranges.join("\n")}
endbfrange
endcmap
CMapName currentdict /CMap defineresource pop
end
end`;
}
