import type { FontFace } from "./font-face.js";
import { table, tableDirectory } from "./sfnt.js";

// Most words of a Latin document need nothing of HarfBuzz but each character's glyph, its advance and
// the kerning between neighbours, and HarfBuzz costs far more than that after idle: its code and the
// font's tables are touched afresh (a letter's 24 new words took 0.9-1.2 ms after 300 ms idle, 0.07 ms
// back to back). `latinTables` reads from a font's GSUB, GPOS and GDEF tables which characters' words
// nothing but pair kerning can change, and the pair kerning itself; `simpleLatin` lays such words out
// from that in JavaScript, with the same glyphs and advances HarfBuzz gives (simple-latin.test.ts
// compares the two over every pair of those characters and random words).
//
// By the rules HarfBuzz applies: a lookup starts only at a glyph of its coverage; a ligature forms only
// of its components in a row, the first of a glyph's ligatures that matches, left to right (laid out
// here when one lookup makes them all and nothing else reads their glyphs, else a word with a ligature's
// first two components goes to HarfBuzz), and a context rule matches
// only glyphs it lists (one that lists none of the characters' glyphs somewhere never matches in their
// words); GPOS kerning is applied lookup by lookup, in each by the first subtable holding the pair; the
// script is Latin when a word has a Latin letter (else HarfBuzz may choose another, and shapes it).

/** A word's glyphs and their advances (font units), as HarfBuzz shapes it. */
export interface SimpleRun {
  ids: number[];
  advances: number[];
  /** Where each glyph's characters start, when a ligature joined some (else a glyph per character). */
  clusters?: number[];
}

/** Lays out a word HarfBuzz would shape as glyph plus advance plus pair kerning; undefined for any other. */
export type SimpleShaper = (text: string) => SimpleRun | undefined;

// Characters a word laid out here may hold: printable ASCII, Latin-1 and Latin Extended-A (not the soft
// hyphen, which HarfBuzz hides), and the common quotes, dashes and symbols of Latin text. The space
// only as the word's trailing one (a word is cut at spaces). Tab, line feed and carriage return too: a
// line's last word reaches the layout with its line feed, which a font maps to no glyph, and HarfBuzz
// then gives .notdef (glyph 0) at its advance, as for any character the font lacks.
const CANDIDATES = [
  [0x09, 0x0a],
  [0x0d, 0x0d],
  [0x20, 0x7e],
  [0xa1, 0xac],
  [0xae, 0x17f],
  [0x2013, 0x2014],
  [0x2018, 0x201e],
  [0x2020, 0x2022],
  [0x2026, 0x2026],
  [0x20ac, 0x20ac],
  [0x2122, 0x2122],
] as const;
const NOTDEF = 0;
/** Whether a candidate is a Latin letter (those of Script=Latin among the candidates). */
const isLatinLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0xaa || c === 0xba || (c >= 0xc0 && c <= 0x17f && c !== 0xd7 && c !== 0xf7);

// The features HarfBuzz applies to left-to-right text by default (hb-ot-shape.cc: common, horizontal
// and direction features; the Latin shaper adds none), and its GPOS kerning feature.
const APPLIED = new Set(["rvrn", "ltra", "ltrm", "frac", "numr", "dnom", "ccmp", "locl", "rlig", "rclt", "calt", "clig", "liga", "abvm", "blwm", "mark", "mkmk", "curs", "dist", "kern"]);
const KERN = "kern";

/**
 * A kerning subtable, read for the characters' glyphs only (indexed by their place in LatinTables' lists),
 * as plain data: format 1 lists, for each first glyph's place, the x advances it gets before second glyphs;
 * format 2 the places' classes (renumbered among those the glyphs have) and the matrix of those.
 */
export type PairTable = { format: 1; firsts: [number, [number, number][]][] } | { format: 2; covered: number[]; class1: number[]; class2: number[]; class2Count: number; values: number[] };

/**
 * What the simple layout reads from a face's tables, as plain data: DejaVu's are generated into
 * src/gen/latin-tables.ts (scripts/latin-tables.mjs), so a process doesn't read them at start. Read there,
 * the tables' hot loops had V8 compile them on other threads, whose memory stayed: 1.5-2 MiB more idle.
 */
export interface LatinTables {
  /** The font file these are of: its length and head's checksum adjustment. */
  font: { length: number; checksum: number };
  /** The characters taken, each one's glyph and its advance (font units), by place. */
  chars: number[];
  glyphs: number[];
  advances: number[];
  /** Pairs of places (first × 0x10000 + second) a ligature may join: a word with one goes to HarfBuzz. */
  ligating: number[];
  /**
   * The ligatures laid out here (fi, fl, ff, ffi, ffl), each its components' places and the ligature
   * glyph's place (after the characters' in `glyphs` and `advances`), in the order the font tries them.
   */
  ligatures: [number[], number][];
  /** The kerning lookups in the order applied, each its subtables in order. */
  kerning: PairTable[][];
}

/** Which font file `bytes` is, as LatinTables records it. */
export function fontIdentity(bytes: Uint8Array): LatinTables["font"] {
  const head = table(bytes, tableDirectory(bytes), "head");
  return { length: bytes.byteLength, checksum: head.getUint32(8) };
}

/** Reads the tables of `face`, or undefined when they are not of the kind read here (HarfBuzz shapes all). */
export function latinTables(face: FontFace): LatinTables | undefined {
  const bytes = face.bytes;
  const tables = tableDirectory(bytes);
  // Apple's layout tables, which HarfBuzz may apply instead, are not read here.
  if (!tables.has("GPOS") || ["morx", "kerx", "trak"].some((tag) => tables.has(tag))) return undefined;
  const gpos = table(bytes, tables, "GPOS");
  // HarfBuzz kerns by the old kern table only when GPOS has no kerning: not read here either.
  if (tables.has("kern") && !featureRecords(gpos).some((f) => f.tag === KERN)) return undefined;
  const gsub = tables.has("GSUB") ? table(bytes, tables, "GSUB") : undefined;
  const gdef = tables.has("GDEF") ? table(bytes, tables, "GDEF") : undefined;

  // The candidates' glyphs: those with a glyph of their own that no kerning lookup may skip (ligature and
  // mark glyphs may be).
  const candidates = new Map<number, number>(); // character → glyph
  for (const [from, to] of CANDIDATES) {
    for (let c = from; c <= to; c++) {
      const glyph = face.hb.nominalGlyph(c) ?? (c < 0x20 ? NOTDEF : undefined);
      if (glyph === undefined) continue;
      const kind = gdef ? glyphClass(gdef, glyph) : 0;
      if (kind !== 2 && kind !== 3) candidates.set(c, glyph);
    }
  }
  // What some applied lookup other than pair kerning may do within a word of those glyphs: start at a
  // glyph (a word holding it goes to HarfBuzz), or form a ligature of a pair (a word with the pair does).
  // The ligatures of those glyphs, by lookup: laid out here when one lookup makes them all and no other
  // lookup reads their glyphs (their glyphs count as ours for that: a rule may read them).
  const ligatureLookups = gsub ? appliedLookups(gsub, GSUB).filter((lookup) => lookup.type === 4 && !(lookup.flag & 0x2)) : [];
  const made = ligatureLookups.map((lookup) => ligaturesOf(gsub!, lookup, new Set(candidates.values())));
  const ours = new Set([...candidates.values(), ...made.flat().map(([, glyph]) => glyph)]);
  const found: Triggers = { glyphs: new Set(), pairs: new Set() };
  if (gsub) for (const lookup of appliedLookups(gsub, GSUB)) addTriggers(gsub, lookup, GSUB, ours, found);
  const kerning: Lookup[] = [];
  const kernLookups = lookupsOf(gpos, KERN);
  if (kernLookups === undefined) return undefined;
  for (const lookup of appliedLookups(gpos, GPOS)) {
    if (lookup.type === 2 && kernLookups.has(lookup.index)) kerning.push(lookup);
    else addTriggers(gpos, lookup, GPOS, ours, found);
  }
  // Kerning that skips glyphs (ignoring base glyphs, or by mark filtering) is left to HarfBuzz.
  if (kerning.some((lookup) => lookup.flag & 0x12)) return undefined;

  const chars: number[] = [];
  const glyphs: number[] = [];
  for (const [c, glyph] of candidates) {
    if (found.glyphs.has(glyph)) continue;
    chars.push(c);
    glyphs.push(glyph);
  }
  const withLigatures = made.filter((ligatures) => ligatures.length > 0);
  const placeOf = new Map(glyphs.map((glyph, place) => [glyph, place]));
  const ligatures: [number[], number][] = [];
  // Kerning that skips ligature glyphs (IgnoreLigatures) would kern across them: such fonts' ligatures go to HarfBuzz.
  const lone = withLigatures.length === 1 && !kerning.some((lookup) => lookup.flag & 0x4) ? withLigatures[0]! : [];
  if (lone.length > 0 && lone.every(([components, glyph]) => !found.glyphs.has(glyph) && components.every((g) => placeOf.has(g)))) {
    for (const [components, glyph] of lone) {
      let place = glyphs.indexOf(glyph, chars.length);
      if (place < 0) place = glyphs.push(glyph) - 1;
      ligatures.push([components.map((g) => placeOf.get(g)!), place]);
    }
  }
  const ligating: number[] = [];
  if (ligatures.length === 0) {
    for (const [a, first] of glyphs.entries()) {
      for (const [b, second] of glyphs.entries()) if (found.pairs.has(first * 0x10000 + second)) ligating.push(a * 0x10000 + b);
    }
  }
  const pairs: PairTable[][] = [];
  for (const lookup of kerning) {
    const read = lookup.subtables.map((at) => pairTable(gpos, at, glyphs));
    if (read.includes(undefined)) return undefined;
    pairs.push(read as PairTable[]);
  }
  const advances = glyphs.map((glyph) => face.getGlyph(glyph).advanceWidth);
  return { font: fontIdentity(bytes), chars, glyphs, advances, ligating, ligatures, kerning: pairs };
}

/** Lays out words by `tables` (of the face it shapes: see fontIdentity). */
export function simpleLatin(tables: LatinTables): SimpleShaper {
  const { glyphs, advances } = tables;
  // By character code, each character's place (-1: not taken), and whether it is a Latin letter: typed
  // arrays, as cheap to read in code V8 has not optimised yet (a new word's, on most letters) as after.
  const place = new Int16Array(Math.max(...tables.chars) + 1).fill(-1);
  const latin = new Uint8Array(place.length);
  for (const [i, c] of tables.chars.entries()) {
    place[c] = i;
    latin[c] = isLatinLetter(c) ? 1 : 0;
  }
  const ligating = new Set(tables.ligating);
  // By the place of their first component: the rest of their components and the ligature's place, in order.
  const ligatures = new Map<number, [number[], number][]>();
  for (const [[first, ...rest], place] of tables.ligatures) ligatures.set(first!, [...(ligatures.get(first!) ?? []), [rest, place]]);
  const kern = kerning(tables);

  return (text) => {
    const n = text.length;
    let hasLatin = false;
    let joins = false;
    const places: number[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      const at = c < place.length ? place[c]! : -1;
      // A space only at the end: in a word, HarfBuzz could kern across it as anything else, but pdfkit
      // cuts words after their spaces, so words with one inside are rare enough to leave to it.
      if (at < 0 || (c === 0x20 && text.charCodeAt(i + 1) !== 0x20 && i + 1 < n)) return undefined;
      if (latin[c]) hasLatin = true;
      if (ligatures.size > 0 && ligatures.has(at)) joins = true;
      places[i] = at;
    }
    if (!hasLatin) return undefined; // then HarfBuzz would take the script from elsewhere
    if (joins) return joined(places);
    const ids: number[] = new Array(n);
    const widths: number[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const at = places[i]!;
      if (i + 1 < n && ligating.size > 0 && ligating.has(at * 0x10000 + places[i + 1]!)) return undefined;
      ids[i] = glyphs[at]!;
      widths[i] = advances[at]! + (i + 1 < n ? kern(at, places[i + 1]!) : 0);
    }
    return { ids, advances: widths };
  };

  /**
   * A word with a ligature's first component: as HarfBuzz's ligature lookup runs, left to right, at each
   * glyph the first of its ligatures whose components follow (none past the word's end), then kerned.
   */
  function joined(places: readonly number[]): SimpleRun {
    const drawn: number[] = [];
    const clusters: number[] = [];
    for (let i = 0; i < places.length; ) {
      const at = places[i]!;
      const match = ligatures.get(at)?.find(([rest]) => rest.every((p, k) => places[i + 1 + k] === p));
      drawn.push(match ? match[1] : at);
      clusters.push(i);
      i += match ? match[0].length + 1 : 1;
    }
    const ids = drawn.map((at) => glyphs[at]!);
    const widths = drawn.map((at, k) => advances[at]! + (k + 1 < drawn.length ? kern(at, drawn[k + 1]!) : 0));
    return { ids, advances: widths, clusters };
  }
}

/**
 * The x advance kerning adds to the glyph at place `a` before the one at `b`: each lookup in order, in
 * each the first subtable holding the pair. Looked up each time (a few typed-array reads, cheaper than a
 * map of the pairs seen, which text of random characters would grow to every pair of ~330 characters).
 * A lookup whose values are all zero adds nothing and is left out, and the common case, one lookup of
 * one class-based subtable (DejaVu's), is read straight, without the loops.
 */
function kerning(tables: LatinTables): (a: number, b: number) => number {
  const lookups = tables.kerning
    .filter((subtables) => subtables.some((pair) => (pair.format === 1 ? pair.firsts.some(([, seconds]) => seconds.some(([, value]) => value !== 0)) : pair.values.some((value) => value !== 0))))
    .map((subtables) =>
      subtables.map((pair) =>
        pair.format === 1
          ? { format: 1 as const, firsts: new Map(pair.firsts.map(([place, seconds]) => [place, new Map(seconds)])) }
          : {
              format: 2 as const,
              covered: Uint8Array.from(pair.covered),
              class1: Uint16Array.from(pair.class1),
              class2: Uint16Array.from(pair.class2),
              class2Count: pair.class2Count,
              values: Int16Array.from(pair.values),
            },
      ),
    );
  if (lookups.length === 0) return () => 0;
  const only = lookups.length === 1 && lookups[0]!.length === 1 ? lookups[0]![0]! : undefined;
  if (only?.format === 2) {
    const { covered, class1, class2, class2Count, values } = only;
    return (a, b) => (covered[a] ? values[class1[a]! * class2Count + class2[b]!]! : 0);
  }
  const { glyphs } = tables;
  return (a, b) => {
    let total = 0;
    for (const subtables of lookups) {
      for (const pair of subtables) {
        if (pair.format === 1) {
          const value = pair.firsts.get(a)?.get(glyphs[b]!);
          if (value === undefined) continue;
          total += value;
        } else {
          if (!pair.covered[a]) continue;
          total += pair.values[pair.class1[a]! * pair.class2Count + pair.class2[b]!]!;
        }
        break;
      }
    }
    return total;
  };
}

/** How GSUB and GPOS number their lookup types: the extension, the context and the chained context one. */
interface LookupTypes {
  extension: number;
  context: number;
  chained: number;
}
const GSUB: LookupTypes = { extension: 7, context: 5, chained: 6 };
const GPOS: LookupTypes = { extension: 9, context: 7, chained: 8 };

interface Lookup {
  index: number;
  type: number;
  flag: number;
  /** Offsets of the subtables in the table (past any extension). */
  subtables: number[];
}

/** The lookups of the features HarfBuzz applies in the Latin and default scripts, any language. */
function appliedLookups(view: DataView, types: LookupTypes): Lookup[] {
  const indices = new Set<number>();
  for (const feature of featuresOf(view)) if (APPLIED.has(feature.tag)) for (const i of feature.lookups) indices.add(i);
  return [...indices].sort((a, b) => a - b).map((i) => lookupAt(view, i, types.extension));
}

/** The lookups of feature `tag` in the Latin script, if every language of it has the same ones. */
function lookupsOf(view: DataView, tag: string): Set<number> | undefined {
  const systems = langSystems(view, ["latn"]);
  if (systems.length === 0) return undefined;
  const features = featureRecords(view);
  let found: string | undefined;
  let lookups = new Set<number>();
  for (const system of systems) {
    const mine = new Set<number>();
    for (const f of system) if (features[f]?.tag === tag) for (const i of features[f]!.lookups) mine.add(i);
    const key = [...mine].sort((a, b) => a - b).join(",");
    if (found !== undefined && key !== found) return undefined;
    found = key;
    lookups = mine;
  }
  return lookups;
}

interface Feature {
  tag: string;
  lookups: number[];
}

/** The features of the Latin and default scripts' language systems (their required features too). */
function featuresOf(view: DataView): Feature[] {
  const features = featureRecords(view);
  const used = new Set(langSystems(view, ["latn", "DFLT"]).flat());
  return [...used].map((i) => features[i]).filter((f): f is Feature => f !== undefined);
}

/** Each language system (default and per language) of `scripts`: the feature indices it uses. */
function langSystems(view: DataView, scripts: string[]): number[][] {
  const list = view.getUint16(4);
  const systems: number[][] = [];
  const langSys = (at: number) => {
    const required = view.getUint16(at + 2);
    const count = view.getUint16(at + 4);
    const indices = Array.from({ length: count }, (_, i) => view.getUint16(at + 6 + 2 * i));
    systems.push(required === 0xffff ? indices : [required, ...indices]);
  };
  for (let i = 0; i < view.getUint16(list); i++) {
    const record = list + 2 + 6 * i;
    if (!scripts.includes(tagAt(view, record))) continue;
    const script = list + view.getUint16(record + 4);
    if (view.getUint16(script)) langSys(script + view.getUint16(script));
    for (let l = 0; l < view.getUint16(script + 2); l++) langSys(script + view.getUint16(script + 4 + 6 * l + 4));
  }
  return systems;
}

function featureRecords(view: DataView): Feature[] {
  const list = view.getUint16(6);
  return Array.from({ length: view.getUint16(list) }, (_, i) => {
    const record = list + 2 + 6 * i;
    const feature = list + view.getUint16(record + 4);
    const lookups = Array.from({ length: view.getUint16(feature + 2) }, (_, j) => view.getUint16(feature + 4 + 2 * j));
    return { tag: tagAt(view, record), lookups };
  });
}

function lookupAt(view: DataView, index: number, extension: number): Lookup {
  const list = view.getUint16(8);
  const at = list + view.getUint16(list + 2 + 2 * index);
  let type = view.getUint16(at);
  const flag = view.getUint16(at + 2);
  let subtables = Array.from({ length: view.getUint16(at + 4) }, (_, i) => at + view.getUint16(at + 6 + 2 * i));
  if (type === extension) {
    type = view.getUint16(subtables[0]! + 2);
    subtables = subtables.map((s) => s + view.getUint32(s + 4));
  }
  return { index, type, flag, subtables };
}

/** Glyphs a lookup may start at, and pairs of glyphs (first × 0x10000 + second) it may join. */
interface Triggers {
  glyphs: Set<number>;
  pairs: Set<number>;
}

/**
 * Adds what `lookup` may do to a word of `ours` glyphs: a ligature only to the pairs of its first two
 * glyphs, a context rule only when every glyph it reads may be one of ours, anything else at the glyphs
 * of its coverage.
 */
function addTriggers(view: DataView, lookup: Lookup, types: LookupTypes, ours: ReadonlySet<number>, into: Triggers): void {
  for (const at of lookup.subtables) {
    const format = view.getUint16(at);
    const coverage = at + view.getUint16(at + 2);
    if (types === GSUB && lookup.type === 4 && !(lookup.flag & 0x2)) addLigatures(view, at, coverage, ours, into);
    else if (lookup.type === types.context || lookup.type === types.chained) {
      const chained = lookup.type === types.chained;
      if (format === 3) addFormat3(view, at, chained, ours, into.glyphs);
      else if (format === 1 || format === 2) addRules(view, at, coverage, format, chained, ours, into.glyphs);
      else addCoverage(view, coverage, into.glyphs);
    } else addCoverage(view, coverage, into.glyphs);
  }
}

/** The ligatures of a ligature lookup made of `ours` glyphs only: components and ligature glyph, in the font's order. */
function ligaturesOf(view: DataView, lookup: Lookup, ours: ReadonlySet<number>): [number[], number][] {
  const found: [number[], number][] = [];
  for (const at of lookup.subtables) {
    if (view.getUint16(at) !== 1) continue;
    const firsts: number[] = [];
    addCoverage(view, at + view.getUint16(at + 2), firsts);
    firsts.forEach((first, i) => {
      const set = at + view.getUint16(at + 6 + 2 * i);
      for (let l = 0; l < view.getUint16(set); l++) {
        const ligature = set + view.getUint16(set + 2 + 2 * l);
        const count = view.getUint16(ligature + 2);
        const components = [first, ...Array.from({ length: count - 1 }, (_, k) => view.getUint16(ligature + 4 + 2 * k))];
        if (count >= 2 && components.every((g) => ours.has(g))) found.push([components, view.getUint16(ligature)]);
      }
    });
  }
  return found;
}

/** A ligature subtable: each ligature of two glyphs or more joins its first two. */
function addLigatures(view: DataView, at: number, coverage: number, ours: ReadonlySet<number>, into: Triggers): void {
  const firsts: number[] = [];
  addCoverage(view, coverage, firsts);
  firsts.forEach((first, i) => {
    const set = at + view.getUint16(at + 6 + 2 * i);
    for (let l = 0; l < view.getUint16(set); l++) {
      const ligature = set + view.getUint16(set + 2 + 2 * l);
      if (view.getUint16(ligature + 2) < 2) into.glyphs.add(first);
      else if (ours.has(view.getUint16(ligature + 4))) into.pairs.add(first * 0x10000 + view.getUint16(ligature + 4));
    }
  });
}

/** A context subtable of format 3 (a coverage per glyph read): its input when every coverage has one of ours. */
function addFormat3(view: DataView, at: number, chained: boolean, ours: ReadonlySet<number>, into: Set<number>): void {
  // Context: glyph count, lookup count, the input's coverages. Chained: backtrack, input and lookahead, each counted.
  const sequences: number[][] = [];
  let p = at + 2;
  for (let part = 0; part < (chained ? 3 : 1); part++) {
    const count = view.getUint16(p);
    p += chained ? 2 : 4;
    sequences.push(Array.from({ length: count }, (_, i) => at + view.getUint16(p + 2 * i)));
    p += 2 * count;
  }
  const anyOurs = (coverage: number) => {
    const glyphs: number[] = [];
    addCoverage(view, coverage, glyphs);
    return glyphs.some((g) => ours.has(g));
  };
  if (sequences.flat().every(anyOurs)) for (const coverage of sequences[chained ? 1 : 0]!) addCoverage(view, coverage, into);
}

/**
 * A context subtable of format 1 (rules of glyphs) or 2 (rules of classes), rules kept by the coverage
 * index (format 1) or the input class (format 2) of the glyph they start at: that glyph when one of its
 * rules reads only what may be ours.
 */
function addRules(view: DataView, at: number, coverage: number, format: 1 | 2, chained: boolean, ours: ReadonlySet<number>, into: Set<number>): void {
  // Class definitions (format 2): a context one, or a chained one's backtrack, input and lookahead.
  const defs = format === 2 ? (chained ? [4, 6, 8] : [4, 4, 4]).map((o) => at + view.getUint16(at + o)) : [];
  const setsAt = format === 1 ? at + 4 : chained ? at + 10 : at + 6;
  // What may be ours at a place read by a rule: a glyph (format 1) or a class some glyph of ours has
  // (found when first asked: most subtables start at no glyph of ours).
  let classesOurs: Set<number>[] | undefined;
  const possible = (part: number, value: number) => {
    if (format === 1) return ours.has(value);
    classesOurs ??= defs.map((def) => new Set(Array.from(ours, (g) => classOf(view, def, g))));
    return classesOurs[part]!.has(value);
  };
  const firsts: number[] = [];
  addCoverage(view, coverage, firsts);
  firsts.forEach((first, i) => {
    if (!ours.has(first)) return;
    const key = format === 1 ? i : classOf(view, defs[1]!, first);
    if (key >= view.getUint16(setsAt)) return;
    const offset = view.getUint16(setsAt + 2 + 2 * key);
    if (!offset) return;
    const set = at + offset;
    for (let r = 0; r < view.getUint16(set); r++) {
      const rule = set + view.getUint16(set + 2 + 2 * r);
      // Context: glyph count (the first not listed), lookup count, the rest. Chained: backtrack, input (the
      // first not listed) and lookahead, each counted.
      const values: [number, number][] = [];
      if (chained) {
        let p = rule;
        for (let part = 0; part < 3; part++) {
          const count = view.getUint16(p) - (part === 1 ? 1 : 0);
          for (let k = 0; k < count; k++) values.push([part, view.getUint16(p + 2 + 2 * k)]);
          p += 2 + 2 * count;
        }
      } else {
        for (let k = 0; k < view.getUint16(rule) - 1; k++) values.push([1, view.getUint16(rule + 4 + 2 * k)]);
      }
      if (values.every(([part, value]) => possible(part, value))) {
        into.add(first);
        return;
      }
    }
  });
}

/** Adds the glyphs of a coverage table, in coverage order. */
function addCoverage(view: DataView, at: number, into: Set<number> | number[]): void {
  const add = (glyph: number) => (Array.isArray(into) ? into.push(glyph) : into.add(glyph));
  const format = view.getUint16(at);
  const count = view.getUint16(at + 2);
  if (format === 1) for (let i = 0; i < count; i++) add(view.getUint16(at + 4 + 2 * i));
  else for (let i = 0; i < count; i++) for (let g = view.getUint16(at + 4 + 6 * i); g <= view.getUint16(at + 6 + 6 * i); g++) add(g);
}

/** The coverage index of `glyph`, or -1 (glyphs and ranges are sorted: searched by halves). */
function coverageIndex(view: DataView, at: number, glyph: number): number {
  const format = view.getUint16(at);
  let low = 0;
  let high = view.getUint16(at + 2) - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (format === 1) {
      const found = view.getUint16(at + 4 + 2 * mid);
      if (found === glyph) return mid;
      if (found < glyph) low = mid + 1;
      else high = mid - 1;
    } else {
      const record = at + 4 + 6 * mid;
      if (glyph < view.getUint16(record)) high = mid - 1;
      else if (glyph > view.getUint16(record + 2)) low = mid + 1;
      else return view.getUint16(record + 4) + glyph - view.getUint16(record);
    }
  }
  return -1;
}

/** The class of `glyph` in a class definition table (0 when it lists it not). */
function classOf(view: DataView, at: number, glyph: number): number {
  if (view.getUint16(at) === 1) {
    const start = view.getUint16(at + 2);
    const count = view.getUint16(at + 4);
    return glyph >= start && glyph < start + count ? view.getUint16(at + 6 + 2 * (glyph - start)) : 0;
  }
  let low = 0;
  let high = view.getUint16(at + 2) - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const record = at + 4 + 6 * mid;
    if (glyph < view.getUint16(record)) high = mid - 1;
    else if (glyph > view.getUint16(record + 2)) low = mid + 1;
    else return view.getUint16(record + 4);
  }
  return 0;
}

function glyphClass(gdef: DataView, glyph: number): number {
  const at = gdef.getUint16(4);
  return at ? classOf(gdef, at, glyph) : 0;
}

/** A value record's size, and where its x advance is in it (-1 when absent). */
function valueLayout(format: number): { size: number; xAdvance: number } {
  const bits = (f: number) => {
    let n = 0;
    for (let b = f; b; b >>= 1) n += b & 1;
    return n;
  };
  return { size: 2 * bits(format), xAdvance: format & 4 ? 2 * bits(format & 3) : -1 };
}

/**
 * A PairPos subtable read for `glyphs` only, or undefined when it moves anything but the first glyph's
 * advance (a placement, a second glyph's value, a device table): such fonts are left to HarfBuzz.
 */
function pairTable(view: DataView, at: number, glyphs: readonly number[]): PairTable | undefined {
  const format = view.getUint16(at);
  const coverage = at + view.getUint16(at + 2);
  const format1 = view.getUint16(at + 4);
  const format2 = view.getUint16(at + 6);
  if (format2 !== 0 || (format1 & ~4) !== 0) return undefined;
  const value = valueLayout(format1);
  const xAdvance = (record: number) => (value.xAdvance < 0 ? 0 : view.getInt16(record + value.xAdvance));
  if (format === 1) {
    const firsts: [number, [number, number][]][] = [];
    const ours = new Set(glyphs);
    glyphs.forEach((glyph, place) => {
      const covered = coverageIndex(view, coverage, glyph);
      if (covered < 0) return;
      const set = at + view.getUint16(at + 10 + 2 * covered);
      const seconds: [number, number][] = [];
      for (let i = 0; i < view.getUint16(set); i++) {
        const record = set + 2 + i * (2 + value.size);
        const second = view.getUint16(record);
        if (ours.has(second)) seconds.push([second, xAdvance(record + 2)]);
      }
      firsts.push([place, seconds]);
    });
    return { format: 1, firsts };
  }
  if (format !== 2) return undefined;
  const classDef1 = at + view.getUint16(at + 8);
  const classDef2 = at + view.getUint16(at + 10);
  const class1Count = view.getUint16(at + 12);
  const class2Count = view.getUint16(at + 14);
  // The classes our glyphs have, numbered anew in order of first appearance: a matrix of those only.
  const renumber = (def: number, count: number) => {
    const classes: number[] = [];
    const of: number[] = [];
    for (const [place, glyph] of glyphs.entries()) {
      const found = classOf(view, def, glyph);
      if (found >= count) return undefined;
      let i = classes.indexOf(found);
      if (i < 0) i = classes.push(found) - 1;
      of[place] = i;
    }
    return { classes, of };
  };
  const first = renumber(classDef1, class1Count);
  const second = renumber(classDef2, class2Count);
  if (!first || !second) return undefined;
  const covered = glyphs.map((glyph) => (coverageIndex(view, coverage, glyph) >= 0 ? 1 : 0));
  const values = first.classes.flatMap((c1) => second.classes.map((c2) => xAdvance(at + 16 + (c1 * class2Count + c2) * value.size)));
  return { format: 2, covered, class1: first.of, class2: second.of, class2Count: second.classes.length, values };
}

function tagAt(view: DataView, at: number): string {
  return String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3));
}
