import { table, tableDirectory, writeSfnt } from "../text/sfnt.js";

/** A font cut down to some glyphs, and the number each glyph has in it. */
export interface Subset {
  bytes: Uint8Array;
  /** Glyph id in the original font → glyph id in the subset. */
  newId: ReadonlyMap<number, number>;
}

// Composite glyph flags (OpenType glyf table).
const ARG_1_AND_2_ARE_WORDS = 0x1;
const WE_HAVE_A_SCALE = 0x8;
const MORE_COMPONENTS = 0x20;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x40;
const WE_HAVE_A_TWO_BY_TWO = 0x80;
const WE_HAVE_INSTRUCTIONS = 0x100;
const TRUETYPE = 0x00010000; // sfnt version of a font with glyf outlines

/**
 * Cuts a TrueType font down to `glyphs` (ids in `bytes`), keeping glyph 0 and the parts of composite
 * glyphs, renumbered in their original order, as the six tables a PDF reads (head, hhea, maxp, loca,
 * glyf, hmtx; PDF 32000-1, 9.9: a CIDFontType2 with a CIDToGIDMap needs no cmap, name, OS/2 or post)
 * and without hinting instructions (viewers draw the outlines as they are; DejaVu's instructions are
 * most of its bytes). Each glyph is copied, not re-encoded, so outlines can't change.
 */
export function subsetFont(bytes: Uint8Array, glyphs: Iterable<number>): Subset {
  const tables = tableDirectory(bytes);
  const head = table(bytes, tables, "head");
  const hhea = table(bytes, tables, "hhea");
  const maxp = table(bytes, tables, "maxp");
  const loca = table(bytes, tables, "loca");
  const glyf = table(bytes, tables, "glyf");
  const hmtx = table(bytes, tables, "hmtx");
  const count = maxp.getUint16(4);
  const long = head.getInt16(50) === 1;
  const start = (id: number) => (long ? loca.getUint32(id * 4) : loca.getUint16(id * 2) * 2);
  const closure = glyphClosure(glyf, start, count, glyphs);
  const newId = new Map(closure.map((id, i) => [id, i]));

  // Each glyph is measured, then copied straight into the new glyf table (no array of its own).
  const lengths = closure.map((id) => lengthWithoutInstructions(glyf, start(id), start(id + 1)));
  const glyfOut = new Uint8Array(lengths.reduce((sum, length) => sum + align2(length), 0));
  // Short offsets (half the byte offset) where they reach, as fonts write them.
  const short = glyfOut.length < 0x20000;
  const locaOut = new DataView(new ArrayBuffer((closure.length + 1) * (short ? 2 : 4)));
  const setOffset = (i: number, offset: number) => (short ? locaOut.setUint16(i * 2, offset / 2) : locaOut.setUint32(i * 4, offset));
  const from = { view: glyf, bytes: new Uint8Array(glyf.buffer, glyf.byteOffset, glyf.byteLength) };
  const to = { view: new DataView(glyfOut.buffer), bytes: glyfOut };
  let at = 0;
  closure.forEach((id, i) => {
    setOffset(i, at);
    copyWithoutInstructions(from, start(id), start(id + 1), lengths[i]!, to, at, newId);
    at += align2(lengths[i]!);
  });
  setOffset(closure.length, at);

  const metrics = hhea.getUint16(34);
  const hmtxOut = new DataView(new ArrayBuffer(closure.length * 4));
  closure.forEach((id, i) => {
    const advance = hmtx.getUint16(Math.min(id, metrics - 1) * 4);
    const lsb = id < metrics ? hmtx.getInt16(id * 4 + 2) : hmtx.getInt16(metrics * 4 + (id - metrics) * 2);
    hmtxOut.setUint16(i * 4, advance);
    hmtxOut.setInt16(i * 4 + 2, lsb);
  });
  const headOut = copy(head);
  headOut.setUint32(8, 0); // checkSumAdjustment: not needed inside a PDF
  headOut.setInt16(50, short ? 0 : 1);
  const hheaOut = copy(hhea);
  hheaOut.setUint16(34, closure.length);
  const maxpOut = copy(maxp);
  maxpOut.setUint16(4, closure.length);
  return {
    bytes: writeSfnt(TRUETYPE, [
      { tag: "glyf", data: glyfOut },
      { tag: "head", data: bytesOf(headOut) },
      { tag: "hhea", data: bytesOf(hheaOut) },
      { tag: "hmtx", data: bytesOf(hmtxOut) },
      { tag: "loca", data: bytesOf(locaOut) },
      { tag: "maxp", data: bytesOf(maxpOut) },
    ]),
    newId,
  };
}

/** `glyphs`, glyph 0 and every component of a composite among them, sorted. */
function glyphClosure(glyf: DataView, start: (id: number) => number, count: number, glyphs: Iterable<number>): number[] {
  const kept = new Set<number>();
  const add = (id: number) => {
    if (kept.has(id) || id >= count) return;
    kept.add(id);
    const at = start(id);
    if (start(id + 1) - at < 10 || glyf.getInt16(at) >= 0) return;
    forEachComponent(glyf, at, (p) => add(glyf.getUint16(p + 2)));
  };
  add(0);
  for (const id of glyphs) add(id);
  return [...kept].sort((a, b) => a - b);
}

function componentLength(flags: number): number {
  return 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2) + (flags & WE_HAVE_A_SCALE ? 2 : flags & WE_HAVE_AN_X_AND_Y_SCALE ? 4 : flags & WE_HAVE_A_TWO_BY_TWO ? 8 : 0);
}

/** The length of the glyph at `from..to` of glyf without its instructions. */
function lengthWithoutInstructions(glyf: DataView, from: number, to: number): number {
  if (to === from) return 0;
  const contours = glyf.getInt16(from);
  // A simple glyph: header, end points of the contours, the instructions' length and the instructions.
  if (contours >= 0) return to - from - glyf.getUint16(from + 10 + contours * 2);
  // A composite: its components, then (if flagged) the instructions, which are left out.
  return forEachComponent(glyf, from, noop) - from;
}

/**
 * Calls `visit` with the offset and flags of each component of the composite glyph at `at`, read before
 * the visit (which may rewrite them); returns where the components end (instructions, if any, follow).
 */
function forEachComponent(view: DataView, at: number, visit: (p: number, flags: number) => void): number {
  for (let p = at + 10; ; ) {
    const flags = view.getUint16(p);
    visit(p, flags);
    p += componentLength(flags);
    if (!(flags & MORE_COMPONENTS)) return p;
  }
}

function noop(): void {}

/** A table's bytes, and a view to read and write its numbers. */
interface Table {
  view: DataView;
  bytes: Uint8Array;
}

/**
 * Copies the glyph at `start..end` of glyf (`from`), `length` bytes without its instructions
 * (lengthWithoutInstructions), into `to` at `at`, a composite's components renumbered by `newId`.
 */
function copyWithoutInstructions(from: Table, start: number, end: number, length: number, to: Table, at: number, newId: ReadonlyMap<number, number>): void {
  if (end === start) return;
  const contours = from.view.getInt16(start);
  if (contours >= 0) {
    // Header and end points, a zero instructions' length (`to` is zeroed), then the outline.
    const lengthAt = start + 10 + contours * 2;
    to.bytes.set(from.bytes.subarray(start, lengthAt), at);
    to.bytes.set(from.bytes.subarray(lengthAt + 2 + from.view.getUint16(lengthAt), end), at + (lengthAt - start) + 2);
    return;
  }
  to.bytes.set(from.bytes.subarray(start, start + length), at);
  forEachComponent(to.view, at, (p, flags) => {
    to.view.setUint16(p, flags & ~WE_HAVE_INSTRUCTIONS);
    to.view.setUint16(p + 2, newId.get(to.view.getUint16(p + 2))!);
  });
}

const align2 = (n: number) => (n + 1) & ~1;
const copy = (view: DataView) => new DataView(new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice().buffer);
const bytesOf = (view: DataView) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
