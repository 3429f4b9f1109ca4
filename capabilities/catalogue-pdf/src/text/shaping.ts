import * as hb from "harfbuzzjs";
import { COMPLEX } from "./actual-text.js";
import { directionOf } from "./direction.js";
import { FontFace, type SeedGlyph, VARIANT } from "./font-face.js";
import { fontIdentity, type LatinTables, simpleLatin } from "./simple-latin.js";

/** A glyph as pdfkit's embedded font reads it: id, hmtx advance (font units) and the characters it stands for. */
export interface ShapedGlyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

/** A position as pdfkit reads it (font units until pdfkit scales them). */
export interface ShapedPosition {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
  advanceWidth?: number;
}

/** The result of shaping, in the shape of fontkit's GlyphRun that pdfkit's EmbeddedFont consumes. */
export class ShapedRun {
  constructor(
    readonly glyphs: ShapedGlyph[],
    readonly positions: ShapedPosition[],
  ) {}
  /** Sum of the advances (pdfkit reads it after scaling the positions, so it is computed, not stored). */
  get advanceWidth(): number {
    let width = 0;
    for (const p of this.positions) width += p.xAdvance;
    return width;
  }
}

let buffer: hb.Buffer | undefined;

/**
 * A pseudo-feature, passed through pdfkit's `features` option, that shapes a run right to left whatever its
 * characters: neutral characters inside right-to-left text (brackets) are then mirrored by HarfBuzz while
 * their Unicode mapping stays the character written.
 */
export const RIGHT_TO_LEFT = "selu-rtl";

/** A position as pdfkit's EmbeddedFont leaves it after its `layoutRun`: in 1/1000 em, with the glyph's advance. */
export interface ScaledPosition {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
  advanceWidth: number;
}

/** A run as pdfkit's EmbeddedFont's `layoutRun` returns it (positions scaled, the advances summed). */
export interface ScaledRun {
  readonly glyphs: readonly ShapedGlyph[];
  readonly positions: readonly ScaledPosition[];
  readonly advanceWidth: number;
}

/**
 * Makes the face shape with HarfBuzz (compiled to WebAssembly): Arabic joining, Indic reordering and
 * conjuncts, Thai marks, ligatures and kerning, from the font's own OpenType tables. pdfkit measures and
 * draws every run through its EmbeddedFont's `layoutRun`, which render/layout-cache.ts points at
 * `font.layoutScaled`, then embeds the glyph ids it returns, so the subset, the widths and the ToUnicode
 * map all follow the shaped glyphs. `font.layout` is fontkit's interface (font units, fresh positions).
 */
export function shapeWithHarfBuzz(font: FontFace, options: ShapingOptions = {}): void {
  const { glyphOf, glyphOfUnit } = glyphTable(font);
  const simple = options.latinTables && sameFont(options.latinTables.font, fontIdentity(font.bytes)) ? simpleLatin(options.latinTables) : undefined;
  if (simple) font.seed = seedGlyphs(options.latinTables!, glyphOf);
  const shape = (text: string, rtl: boolean) => {
    buffer ??= new hb.Buffer();
    buffer.reset();
    buffer.addText(text);
    buffer.guessSegmentProperties();
    // Joiners and variation selectors shape (an emoji ZWJ sequence, a Sinhala conjunct) and then leave no
    // glyph behind: a zero-width one would stand for no character.
    buffer.setFlags(hb.BufferFlag.REMOVE_DEFAULT_IGNORABLES);
    buffer.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR);
    hb.shape(font.hb, buffer);
    // Infos and positions apart: harfbuzzjs's combined getter defines four properties on every glyph.
    const places = buffer.getGlyphPositions();
    const infos = buffer.getGlyphInfos();
    return { glyphs: glyphsOf(text, infos, places, glyphOf), places, infos };
  };
  const forcedRightToLeft = (features: unknown) => Array.isArray(features) && features.includes(RIGHT_TO_LEFT);
  const rightToLeft = (text: string, features: unknown) => forcedRightToLeft(features) || directionOf(text) === "rtl";
  font.layout = (text: string, features?: unknown) => {
    const { glyphs, places } = shape(text, rightToLeft(text, features));
    return new ShapedRun(
      glyphs,
      places.map(({ xAdvance, yAdvance, xOffset, yOffset }) => ({ xAdvance, yAdvance, xOffset, yOffset })),
    );
  };
  // Shaped words as pdfkit uses them, kept across documents (pdfkit's own cache lives for one document)
  // and shared by every caller, as pdfkit only reads them: a letter's words repeat from call to call, and
  // neither copying nor scaling them again makes garbage. Bounded in characters across every face (see
  // `sharedRuns`), since what it holds outlives the documents that filled it.
  const scale = 1000 / font.unitsPerEm;
  // A glyph set at its own advance, unmoved (most glyphs: no kerning, no mark), has one position object
  // for every word it is in (positions are read, never changed).
  const plainPositions = new Map<ShapedGlyph, ScaledPosition>();
  const plain = (glyph: ShapedGlyph): ScaledPosition => {
    let position = plainPositions.get(glyph);
    if (!position) {
      const advance = glyph.advanceWidth * scale;
      plainPositions.set(glyph, (position = { xAdvance: advance, yAdvance: 0, xOffset: 0, yOffset: 0, advanceWidth: advance }));
    }
    return position;
  };
  let cache = new Map<string, ScaledRun>();
  let generation = sharedRuns.generation;
  const current = () => {
    if (generation !== sharedRuns.generation) {
      cache = new Map();
      generation = sharedRuns.generation;
    }
    return cache;
  };
  font.layoutScaled = (text: string, features?: unknown) => {
    const forced = forcedRightToLeft(features);
    // A word kept under its own text was shaped left to right by its direction: found without reading
    // that again (a regular expression per word).
    let run = forced ? undefined : current().get(text);
    if (run) return run;
    // A zero-width space (a break chance page.ts gives a long word, or the writer's own) draws nothing
    // and is left out: its glyph would be copied out of the PDF inside the word (a URL, a hash).
    const drawn = text.includes("\u200B") ? text.replaceAll("\u200B", "") : text;
    // Most Latin words without HarfBuzz (text/simple-latin.ts), with the same glyphs and advances; a word
    // it takes has a Latin letter and nothing right to left, so its direction is not looked up.
    const quick = forced ? undefined : laidOut(drawn);
    const rtl = !quick && (forced || directionOf(text) === "rtl");
    const key = rtl ? `\u0000${text}` : text;
    if (rtl) run = current().get(key);
    if (!run) {
      let infos: readonly hb.GlyphInfo[] | undefined;
      if (quick) run = quick;
      else {
        const shaped = shape(drawn, rtl);
        infos = shaped.infos;
        run = scaled(shaped.glyphs, shaped.places, scale, plain);
      }
      if (text.length <= MAX_CACHED_WORD_CHARS) {
        keep(key, text.length, run);
        // Line breaking measures a word without the space after it, and the line then draws it with it.
        const before = quick ? simpleBeforeSpaces(drawn, quick) : infos && !rtl ? beforeSpaces(drawn, infos, run) : undefined;
        if (before && !current().has(before.word)) keep(before.word, before.word.length, before.run);
      }
    }
    return run;
  };
  /**
   * `text` laid out without HarfBuzz, when `simple` takes it: the run `scaled` would make of its glyphs
   * and advances, in one pass (a new word costs this on every letter, mostly in code not yet optimised).
   */
  const laidOut = (text: string): ScaledRun | undefined => {
    const quick = simple?.(text);
    if (!quick) return undefined;
    const { ids, advances, clusters } = quick;
    const n = ids.length;
    const glyphs: ShapedGlyph[] = new Array(n);
    const positions: ScaledPosition[] = new Array(n);
    let advanceWidth = 0;
    for (let i = 0; i < n; i++) {
      // A glyph per character, but a ligature's, which stands for its characters (fi), as HarfBuzz's does.
      const start = clusters ? clusters[i]! : i;
      const end = clusters ? (clusters[i + 1] ?? text.length) : i + 1;
      const unit = text.charCodeAt(start);
      const glyph = (glyphs[i] = end - start === 1 ? glyphOfUnit(ids[i]!, unit) : glyphOf(ids[i]!, text.slice(start, end)));
      if (end - start === 1 && (unit === 0x0a || unit === 0x0d)) {
        positions[i] = { xAdvance: 0, yAdvance: 0, xOffset: 0, yOffset: 0, advanceWidth: glyph.advanceWidth * scale };
        continue;
      }
      const advance = advances[i]!;
      const position = advance === glyph.advanceWidth ? plain(glyph) : { xAdvance: advance * scale, yAdvance: 0, xOffset: 0, yOffset: 0, advanceWidth: glyph.advanceWidth * scale };
      positions[i] = position;
      advanceWidth += position.xAdvance;
    }
    return { glyphs, positions, advanceWidth };
  };
  /**
   * The word before `text`'s trailing spaces, as `laidOut` would lay it out alone: the glyphs of `run`
   * (`text` laid out: a glyph per character, a ligature's for its characters) up to the spaces, the last
   * at its own advance, no longer kerned with the space after it.
   */
  const simpleBeforeSpaces = (text: string, run: ScaledRun): { word: string; run: ScaledRun } | undefined => {
    const end = wordEnd(text);
    if (end === undefined) return undefined;
    let count = 0;
    for (let chars = 0; chars < end; count++) chars += run.glyphs[count]!.codePoints.length;
    const glyphs = run.glyphs.slice(0, count);
    const positions = run.positions.slice(0, count);
    const last = glyphs[count - 1]!;
    if (!isLineBreak(last)) positions[count - 1] = plain(last);
    let advanceWidth = 0;
    for (let i = 0; i < count; i++) advanceWidth += positions[i]!.xAdvance;
    return { word: text.slice(0, end), run: { glyphs, positions, advanceWidth } };
  };
  // Counted in the word's characters (a right-to-left key's marker is not one).
  const keep = (key: string, chars: number, run: ScaledRun) => {
    sharedRuns.add(chars);
    current().set(ownString(key), run);
  };
}

/**
 * The characters whose glyphs start every subset of a Latin face (FontFace.seed): those of almost any
 * paragraph, capitals included. Words that change from document to document (a letter's, with its names,
 * places and nouns) then change the glyph set and the codes little or not at all, and the font program,
 * its maps and widths are those the last document embedded, kept, instead of made again: after 300 ms
 * idle a letter with new words took 0.95 ms more of the server's main thread than the same letter again
 * without the seed, 0.3 with it; with new capitals too, as a real letter's, 8.2 ms of the main thread with
 * a-z seeded and 6.6 with A-Z as well (bench/letter-after.ts). What it costs: about 2.4 KiB a face used
 * (1.1 of it the capitals), for glyphs a document does not draw. Other characters (é, ß, €, quotes) still
 * make a set of their own; the 16 programs kept per face (render/embed-fonts.ts) hold their usual mixes.
 */
const SEED = "abcdefghijklmnopqrstuvwxyz0123456789 .,:;-()ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * The seed's glyphs in the face of `tables` (each character's glyph in a Latin word), each as `glyphOf`
 * has it: its first meaning is then the seed's character.
 */
function seedGlyphs(tables: LatinTables, glyphOf: (id: number, text: string) => ShapedGlyph): SeedGlyph[] {
  const seed: SeedGlyph[] = [];
  for (const c of SEED) {
    const place = tables.chars.indexOf(c.codePointAt(0)!);
    if (place >= 0) seed.push(glyphOf(tables.glyphs[place]!, c));
  }
  return seed;
}

/** Where the word before `text`'s trailing spaces ends; undefined when `text` has no such word, or no trailing spaces. */
function wordEnd(text: string): number | undefined {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x20) end--;
  return end === 0 || end === text.length ? undefined : end;
}

/**
 * Left-to-right `text` ending in spaces, shaped into `run`: the word before the spaces and its run, cut
 * from `run` where HarfBuzz says that is safe (no glyph at the cut flagged unsafe to break), which is
 * its promise that the word shaped alone gives the same glyphs and positions. So a new word is shaped
 * once, not once to measure and again to draw.
 */
function beforeSpaces(text: string, infos: readonly hb.GlyphInfo[], run: ScaledRun): { word: string; run: ScaledRun } | undefined {
  const end = wordEnd(text);
  if (end === undefined) return undefined;
  // Left to right, clusters only grow: the cut is at the first glyph of the spaces.
  let cut = 0;
  while (cut < infos.length && infos[cut]!.cluster < end) cut++;
  const at = infos[cut];
  if (cut === 0 || !at || at.cluster !== end || at.flags & hb.GlyphFlag.UNSAFE_TO_BREAK) return undefined;
  const positions = run.positions.slice(0, cut);
  // Summed as `scaled` sums a run's advances, so the word's width is the same number as shaping it alone.
  let advanceWidth = 0;
  for (let i = 0; i < cut; i++) advanceWidth += positions[i]!.xAdvance;
  return { word: text.slice(0, end), run: { glyphs: run.glyphs.slice(0, cut), positions, advanceWidth } };
}

/**
 * `text` as a string of its own. A word cut from a paragraph (13 characters or more) is, in V8, a view
 * into the paragraph's string and keeps all of it alive: as a key kept across documents it would hold on
 * to the text of every document that left a word in the cache, up to 200,000 characters each.
 */
function ownString(text: string): string {
  // Shorter ones are copies already: V8 cuts (and joins) strings as views only from 13 characters on.
  return text.length < 13 ? text : structuredClone(text);
}

/** Longer words are not kept: real words are short, and a long "word" is hashes or base64. */
const MAX_CACHED_WORD_CHARS = 64;

/**
 * The characters of shaped words the faces keep between them, about 180 bytes each (measured with
 * 48-character words): text of unique words (base64 in spaced chunks, say) would otherwise leave tens of
 * MB per face after its document ended. Past the bound every face starts afresh (a new generation). The
 * bench's letter adds about 700 characters, its 20-page report about 4,000 (so at most ~6 MB are held).
 */
export const sharedRuns = {
  maxChars: 32_768,
  chars: 0,
  generation: 0,
  /** Counts `chars` more characters in, starting a new generation first when they would pass the bound. */
  add(chars: number): void {
    if (this.chars + chars > this.maxChars) {
      this.generation++;
      this.chars = 0;
    }
    this.chars += chars;
  },
};

/**
 * Shaped glyphs as pdfkit's `layoutRun` makes their run (the same multiplications, so the same numbers);
 * a glyph at its own advance and unmoved gets its shared position (`plain`).
 */
function scaled(glyphs: ShapedGlyph[], places: readonly hb.GlyphPosition[], scale: number, plain: (glyph: ShapedGlyph) => ScaledPosition): ScaledRun {
  const positions: ScaledPosition[] = new Array(places.length);
  let advanceWidth = 0;
  for (let i = 0; i < places.length; i++) {
    const p = places[i]!;
    const glyph = glyphs[i]!;
    if (isLineBreak(glyph)) {
      positions[i] = { xAdvance: 0, yAdvance: 0, xOffset: 0, yOffset: 0, advanceWidth: glyph.advanceWidth * scale };
      continue;
    }
    const xAdvance = p.xAdvance * scale;
    positions[i] =
      p.xAdvance === glyph.advanceWidth && p.yAdvance === 0 && p.xOffset === 0 && p.yOffset === 0
        ? plain(glyph)
        : { xAdvance, yAdvance: p.yAdvance * scale, xOffset: p.xOffset * scale, yOffset: p.yOffset * scale, advanceWidth: glyph.advanceWidth * scale };
    advanceWidth += xAdvance;
  }
  return { glyphs, positions, advanceWidth };
}

/**
 * A line feed or carriage return: the last character of a line's last word as pdfkit's line wrapper
 * measures it, never drawn (the wrapper cuts it off). HarfBuzz sets it as .notdef, as wide as a letter
 * and a half, so a line it ended could not reach the margin: its last word went down a line.
 */
function isLineBreak(glyph: ShapedGlyph): boolean {
  const [first, second] = glyph.codePoints;
  return (first === 0x0a || first === 0x0d) && second === undefined;
}

/**
 * pdfkit keeps one Unicode mapping per embedded glyph, for copying text out. In a cluster (the glyphs
 * HarfBuzz made of some characters) the base glyph, the first that advances, stands for all of the
 * cluster's characters (a ligature "fi" copies as "fi", a reordered Indic syllable as written) and the
 * others (marks, dots, vowel signs) for none. One glyph can stand for different characters in different
 * places (Noto Sans Arabic draws ب ت ث ن ي in the middle of a word with one dotless glyph plus dots,
 * DejaVu Latin "A" and Greek "Α" with one): each further meaning gets an id of its own (above
 * VARIANT), which the document writes as a code of its own mapped to the same glyph.
 */
function glyphsOf(text: string, infos: readonly hb.GlyphInfo[], places: readonly hb.GlyphPosition[], glyphOf: (id: number, text: string) => ShapedGlyph): ShapedGlyph[] {
  // Most words: a glyph per UTF-16 unit, in order (no ligature, mark, surrogate pair or reordering).
  if (infos.length === text.length && infos.every((g, i) => g.cluster === i)) return infos.map((g, i) => glyphOf(g.codepoint, text[i]!));
  const starts = [...new Set(infos.map((g) => g.cluster))].sort((a, b) => a - b);
  const endOf = new Map(starts.map((start, i) => [start, starts[i + 1] ?? text.length]));
  const base = new Map<number, number>();
  infos.forEach((g, i) => {
    const chosen = base.get(g.cluster);
    if (chosen === undefined || (!places[chosen]!.xAdvance && places[i]!.xAdvance)) base.set(g.cluster, i);
  });
  return infos.map((g, i) => {
    if (base.get(g.cluster) === i) return glyphOf(g.codepoint, text.slice(g.cluster, endOf.get(g.cluster)));
    // The cluster's other glyphs stand for no character. pdf.js (Firefox's viewer, extract_pdf_text)
    // copies such a glyph's code as a character when its mapping is empty (a control, or any letter), so
    // in the scripts whose text goes out in an ActualText span (which poppler and Acrobat copy instead)
    // they map to a zero-width space, a format character pdf.js leaves out.
    return glyphOf(g.codepoint, COMPLEX.test(text.slice(g.cluster, endOf.get(g.cluster))) ? "\u200B" : "");
  });
}

/**
 * The glyph objects of one font, one per (glyph, characters) pair: `glyphOf` for any characters,
 * `glyphOfUnit` for one UTF-16 unit given as its code (the same objects, without making a string).
 */
function glyphTable(font: FontFace): { glyphOf: (id: number, text: string) => ShapedGlyph; glyphOfUnit: (id: number, unit: number) => ShapedGlyph } {
  // Most glyphs stand for one UTF-16 unit: those are found by a number, without building a string.
  const single = new Map<number, ShapedGlyph>();
  const glyphs = new Map<string, ShapedGlyph>();
  const meanings = new Map<number, number>();
  const meaning = (id: number, text: string): ShapedGlyph => {
    const variant = meanings.get(id) ?? 0;
    meanings.set(id, variant + 1);
    return { id: id + variant * VARIANT, advanceWidth: font.getGlyph(id).advanceWidth, codePoints: Array.from(text, (c) => c.codePointAt(0)!) };
  };
  const glyphOfUnit = (id: number, unit: number): ShapedGlyph => {
    const key = id * 0x10000 + unit;
    let glyph = single.get(key);
    if (!glyph) single.set(key, (glyph = meaning(id, String.fromCharCode(unit))));
    return glyph;
  };
  const glyphOf = (id: number, text: string): ShapedGlyph => {
    if (text.length === 1) return glyphOfUnit(id, text.charCodeAt(0));
    const key = `${id}:${text}`;
    let glyph = glyphs.get(key);
    if (!glyph) glyphs.set(ownString(key), (glyph = meaning(id, text))); // a long cluster's key would be a view into its paragraph too
    return glyph;
  };
  return { glyphOf, glyphOfUnit };
}

/** How a face shapes besides HarfBuzz. */
export interface ShapingOptions {
  /**
   * The face's tables for laying out the Latin words HarfBuzz would shape as glyphs, advances and pair
   * kerning, without it (text/simple-latin.ts); left out when they are of another font file.
   */
  latinTables?: LatinTables | undefined;
}

const sameFont = (a: LatinTables["font"], b: LatinTables["font"]) => a.length === b.length && a.checksum === b.checksum;

/** A font read from `bytes` (plain OpenType, TrueType outlines) that shapes with HarfBuzz. */
export function shapedFace(bytes: Uint8Array, suffix?: string, options?: ShapingOptions): FontFace {
  const font = new FontFace(bytes, suffix);
  shapeWithHarfBuzz(font, options);
  return font;
}
