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

  const pieces = closure.map((id) => glyphWithoutInstructions(new Uint8Array(glyf.buffer, glyf.byteOffset + start(id), start(id + 1) - start(id)), newId));
  const glyfOut = new Uint8Array(pieces.reduce((sum, p) => sum + align2(p.length), 0));
  // Short offsets (half the byte offset) where they reach, as fonts write them.
  const short = glyfOut.length < 0x20000;
  const locaOut = new DataView(new ArrayBuffer((closure.length + 1) * (short ? 2 : 4)));
  const setOffset = (i: number, offset: number) => (short ? locaOut.setUint16(i * 2, offset / 2) : locaOut.setUint32(i * 4, offset));
  let at = 0;
  pieces.forEach((piece, i) => {
    setOffset(i, at);
    glyfOut.set(piece, at);
    at += align2(piece.length);
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
    for (let p = at + 10; ; ) {
      const flags = glyf.getUint16(p);
      add(glyf.getUint16(p + 2));
      p += componentLength(flags);
      if (!(flags & MORE_COMPONENTS)) break;
    }
  };
  add(0);
  for (const id of glyphs) add(id);
  return [...kept].sort((a, b) => a - b);
}

function componentLength(flags: number): number {
  return 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2) + (flags & WE_HAVE_A_SCALE ? 2 : flags & WE_HAVE_AN_X_AND_Y_SCALE ? 4 : flags & WE_HAVE_A_TWO_BY_TWO ? 8 : 0);
}

/** A glyph's bytes without its instructions; a composite's components renumbered. */
function glyphWithoutInstructions(glyph: Uint8Array, newId: ReadonlyMap<number, number>): Uint8Array {
  if (glyph.length === 0) return glyph;
  const view = new DataView(glyph.buffer, glyph.byteOffset, glyph.byteLength);
  const contours = view.getInt16(0);
  if (contours >= 0) {
    // Header, end points of the contours, then the instructions' length and the instructions.
    const lengthAt = 10 + contours * 2;
    const instructions = view.getUint16(lengthAt);
    const out = new Uint8Array(glyph.length - instructions);
    out.set(glyph.subarray(0, lengthAt));
    out.set(glyph.subarray(lengthAt + 2 + instructions), lengthAt + 2);
    return out;
  }
  let p = 10;
  const parts: number[] = [];
  for (;;) {
    const flags = view.getUint16(p);
    parts.push(p);
    p += componentLength(flags);
    if (!(flags & MORE_COMPONENTS)) break;
  }
  const out = glyph.slice(0, p);
  const outView = new DataView(out.buffer);
  for (const at of parts) {
    outView.setUint16(at, outView.getUint16(at) & ~WE_HAVE_INSTRUCTIONS);
    outView.setUint16(at + 2, newId.get(outView.getUint16(at + 2))!);
  }
  return out;
}

const align2 = (n: number) => (n + 1) & ~1;
const copy = (view: DataView) => new DataView(new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice().buffer);
const bytesOf = (view: DataView) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
