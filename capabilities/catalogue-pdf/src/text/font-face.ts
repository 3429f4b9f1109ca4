import * as hb from "harfbuzzjs";
import { table, tableDirectory } from "./sfnt.js";

/** A glyph as pdfkit's embedded font reads it (only its advance, in font units). */
export interface GlyphMetrics {
  advanceWidth: number;
}

/**
 * Glyph ids from here up name a glyph standing for other characters than its first use (see
 * text/shaping.ts): `id % VARIANT` is the glyph in the font, and each variant gets a code of its own.
 */
export const VARIANT = 0x10000;

/** A glyph every subset of a face starts with: its id, the characters it stands for, its advance (font units). */
export interface SeedGlyph {
  id: number;
  codePoints: number[];
  advanceWidth: number;
}

/**
 * The glyphs one document draws in one font, as pdfkit's EmbeddedFont asks for them: each id gets the
 * next code (CID) when first drawn, a variant too; `ids[cid] % VARIANT` is the font's glyph for a code.
 * The font program embedded for it is render/embed-fonts.ts's.
 */
export class CidSubset {
  /** The id drawn for each code, variants included. */
  readonly ids: number[] = [0];
  private readonly cids = new Map<number, number>([[0, 0]]);

  /** `seed`: glyphs given the first codes, in this order, whether the document draws them or not. */
  constructor(seed: readonly SeedGlyph[] = []) {
    for (const glyph of seed) this.includeGlyph(glyph.id);
  }

  /** The code pdfkit writes for glyph `id`. */
  includeGlyph(id: number): number {
    let cid = this.cids.get(id);
    if (cid === undefined) {
      cid = this.ids.push(id) - 1;
      this.cids.set(id, cid);
    }
    return cid;
  }
}

/**
 * One TrueType font, read by HarfBuzz: what pdfkit's EmbeddedFont and our layout read from a font object
 * (names as fontkit's, whose font objects pdfkit was written for), without fontkit. Metrics come from the
 * font's own tables as fontkit read them (hhea for ascent/descent/gap, OS/2 for cap and x height, head
 * for the box), so layout is unchanged; the cmap and advances from HarfBuzz. `layout` is set by
 * text/shaping.ts; subsetting and embedding are render/embed-fonts.ts's.
 */
export class FontFace {
  readonly unitsPerEm: number;
  readonly ascent: number;
  readonly descent: number;
  readonly lineGap: number;
  readonly capHeight: number;
  readonly xHeight: number;
  readonly italicAngle: number;
  readonly bbox: { minX: number; minY: number; maxX: number; maxY: number };
  readonly postscriptName: string;
  /** FontDescriptor flags (PDF 32000-1, 9.8.2): fixed pitch, serif, symbolic, script, italic. */
  readonly flags: number;
  /** The HarfBuzz font (scale: font units) that shapes and measures this face. */
  readonly hb: hb.Font;
  private readonly codePoints: Set<number>;
  readonly #file: FileInWasm;
  private readonly advances = new Map<number, GlyphMetrics>();
  /** Shapes `text`, in font units (set by text/shaping.ts; fontkit's interface). */
  layout!: (text: string, features?: unknown) => unknown;
  /** Shapes `text` as pdfkit's `layoutRun` returns it, shared (set by text/shaping.ts; pdfkit draws every run through it). */
  layoutScaled!: (text: string, features?: unknown) => unknown;

  /**
   * `bytes`: plain OpenType with TrueType outlines. `suffix` is added to the PostScript name: pdfkit tells
   * fonts apart by it, and the slices of one Noto family share theirs.
   */
  constructor(bytes: Uint8Array, suffix?: string) {
    const tables = tableDirectory(bytes);
    if (!tables.has("glyf")) throw new Error("expected a font with TrueType outlines (a glyf table)");
    const head = table(bytes, tables, "head");
    const hhea = table(bytes, tables, "hhea");
    const post = table(bytes, tables, "post");
    const os2 = tables.has("OS/2") ? table(bytes, tables, "OS/2") : undefined;
    this.unitsPerEm = head.getUint16(18);
    this.bbox = { minX: head.getInt16(36), minY: head.getInt16(38), maxX: head.getInt16(40), maxY: head.getInt16(42) };
    this.ascent = hhea.getInt16(4);
    this.descent = hhea.getInt16(6);
    this.lineGap = hhea.getInt16(8);
    // sxHeight and sCapHeight exist from OS/2 version 2 on.
    const os2v2 = os2 && os2.getUint16(0) >= 2 && os2.byteLength >= 90;
    this.xHeight = os2v2 ? os2.getInt16(86) : 0;
    this.capHeight = os2v2 ? os2.getInt16(88) : this.ascent;
    this.italicAngle = post.getInt32(4) / 65536;
    const familyClass = (os2 ? os2.getInt16(30) : 0) >> 8;
    const italic = (head.getUint16(44) & 2) !== 0;
    this.flags = (post.getUint32(12) ? 1 : 0) | (familyClass >= 1 && familyClass <= 7 ? 2 : 0) | 4 | (familyClass === 10 ? 8 : 0) | (italic ? 64 : 0);
    const face = new hb.Face(new hb.Blob(bytes), 0);
    this.#file = new FileInWasm(face, bytes.byteLength, tables.get("head")![0]);
    this.hb = new hb.Font(face);
    this.postscriptName = suffix ? `${face.getName(6, "en")}-${suffix}` : face.getName(6, "en");
    this.codePoints = new Set(face.collectUnicodes());
  }

  /**
   * The font file (for subsetting), read where HarfBuzz keeps it: a view into WebAssembly memory, to be
   * used at once and not kept (see FileInWasm).
   */
  get bytes(): Uint8Array {
    return this.#file.bytes();
  }

  /** A new set of the glyphs one document draws (pdfkit asks once per document and font). */
  createSubset(): CidSubset {
    return new CidSubset(this.seed);
  }

  /**
   * Glyphs every document's subset of this face starts with (set by text/shaping.ts for the Latin faces):
   * documents whose words differ then mostly draw the same glyphs under the same codes, so they embed
   * the same font program and maps, kept from the first (render/embed-fonts.ts).
   */
  seed: readonly SeedGlyph[] = [];

  /** Whether the font's cmap maps `codePoint` to a glyph. */
  hasGlyphForCodePoint(codePoint: number): boolean {
    return this.codePoints.has(codePoint);
  }

  /** A glyph's advance (font units), as pdfkit reads `font.getGlyph(id).advanceWidth`. */
  getGlyph(id: number): GlyphMetrics {
    let glyph = this.advances.get(id);
    if (!glyph) {
      glyph = { advanceWidth: this.hb.glyphHAdvance(id) };
      this.advances.set(id, glyph);
    }
    return glyph;
  }
}

/**
 * A font file as HarfBuzz holds it, in WebAssembly memory. HarfBuzz copies the file it is given, and
 * keeping the caller's copy too doubled every face's memory (1.4 MiB for the two faces a letter uses,
 * several MiB a CJK font). harfbuzzjs doesn't say where its copy is, but a table it references is a view
 * into it, so the file starts at that view less the table's offset. A memory that grows takes its views
 * with it (they read as empty): the view is found again then, at the cost of one small table reference
 * HarfBuzz never frees, once per growth.
 */
class FileInWasm {
  #view: Uint8Array = new Uint8Array(0);

  constructor(
    private readonly face: hb.Face,
    private readonly length: number,
    private readonly headOffset: number,
  ) {}

  bytes(): Uint8Array {
    if (this.#view.byteLength === 0) {
      const head = this.face.referenceTable("head");
      if (!head) throw new Error("HarfBuzz lost the font's head table");
      this.#view = new Uint8Array(head.buffer, head.byteOffset - this.headOffset, this.length);
    }
    return this.#view;
  }
}
