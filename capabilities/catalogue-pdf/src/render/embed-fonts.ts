import { deflateSync } from "node:zlib";
import { type CidSubset, FontFace } from "../text/font-face.js";
import { subsetFont } from "./font-subset.js";
import type { Doc } from "./page.js";

/** What pdfkit's EmbeddedFont holds for one font of one document (the fields its `embed` reads). */
interface EmbeddedFont {
  font: unknown;
  id: string;
  subset: CidSubset;
  scale: number;
  ascender: number;
  descender: number;
  widths: number[];
  dictionary?: PdfRef;
  embed(): void;
  toUnicodeCmap(): PdfRef;
}

interface PdfRef {
  data: Record<string, unknown>;
  end(chunk?: Uint8Array): void;
}

/** A font program ready to embed: deflated once, and the glyph number each original glyph has in it. */
export interface FontFile {
  deflated: Buffer;
  length: number;
  newId: ReadonlyMap<number, number>;
}

// Font files by font and glyph set: a document that draws the same glyphs as an earlier one (the same
// letter again, a form filled in) embeds the same bytes without subsetting or deflating again.
const files = new WeakMap<FontFace, Map<string, FontFile>>();
const MAX_FILES_PER_FONT = 16;

/**
 * Makes pdfkit embed the document's fonts of ours (FontFace) as HarfBuzz subsets: each font program cut
 * to the glyphs drawn by hb-subset, deflated, and kept for the next document with the same glyphs. The
 * codes pdfkit wrote stay as they are (one per glyph and meaning, see text/shaping.ts) and a CIDToGIDMap
 * maps them to the subset's glyphs, so a glyph standing for two characters is embedded once. Widths and
 * the ToUnicode map are pdfkit's.
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
  const ref = (data?: Record<string, unknown>) => (doc as unknown as { ref(data?: Record<string, unknown>): PdfRef }).ref(data);
  const glyphs = font.subset.glyphs;
  const file = fontFile(face, glyphs);
  // Already deflated: pdfkit compresses only a stream without a Filter.
  const program = ref({ Filter: "FlateDecode", Length1: file.length });
  program.end(file.deflated);
  const map = Buffer.alloc(glyphs.length * 2);
  glyphs.forEach((id, cid) => map.writeUInt16BE(file.newId.get(id)!, cid * 2));
  const cidToGid = ref();
  cidToGid.end(map);

  // The subset tag pdfkit derives from the font's id (F1 → BZZZZZ), as its own embed does.
  const tag = [1, 2, 3, 4, 5, 6].map((i) => String.fromCharCode((font.id.charCodeAt(i) || 73) + 17)).join("");
  const name = `${tag}+${face.postscriptName.replaceAll(" ", "_")}`;
  const { scale } = font;
  const descriptor = ref({
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
    FontFile2: program,
  });
  descriptor.end();
  const descendant = ref({
    Type: "Font",
    Subtype: "CIDFontType2",
    BaseFont: name,
    CIDSystemInfo: { Registry: new String("Adobe"), Ordering: new String("Identity"), Supplement: 0 },
    FontDescriptor: descriptor,
    W: [0, font.widths],
    CIDToGIDMap: cidToGid,
  });
  descendant.end();
  font.dictionary!.data = {
    Type: "Font",
    Subtype: "Type0",
    BaseFont: name,
    Encoding: "Identity-H",
    DescendantFonts: [descendant],
    ToUnicode: font.toUnicodeCmap(),
  };
  font.dictionary!.end();
}

/** The font program for `glyphs` (original ids, any order, repeats allowed), from the cache when it can. */
export function fontFile(face: FontFace, glyphs: readonly number[]): FontFile {
  const unique = [...new Set(glyphs)].sort((a, b) => a - b);
  const key = unique.join(",");
  let cache = files.get(face);
  if (!cache) {
    cache = new Map();
    files.set(face, cache);
  }
  let file = cache.get(key);
  if (file) {
    // Most recently used last, so the oldest goes first.
    cache.delete(key);
  } else {
    const subset = subsetFont(face.bytes, unique);
    file = { deflated: deflateSync(subset.bytes), length: subset.bytes.byteLength, newId: subset.newId };
    if (cache.size >= MAX_FILES_PER_FONT) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, file);
  return file;
}
