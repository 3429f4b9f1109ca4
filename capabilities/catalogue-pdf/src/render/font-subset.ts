import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tableDirectory, table } from "../text/font-face.js";

/** A font cut down to some glyphs, and the number each glyph has in it. */
export interface Subset {
  bytes: Uint8Array;
  /** Glyph id in the original font → glyph id in the subset. */
  newId: ReadonlyMap<number, number>;
}

// The few WebAssembly names used here (the project's TypeScript libraries don't declare them).
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const { Module, Instance } = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

interface SubsetExports {
  memory: { buffer: ArrayBuffer };
  _initialize(): void;
  malloc(size: number): number;
  free(ptr: number): void;
  hb_blob_create(data: number, length: number, mode: number, user: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_glyph_set(input: number): number;
  hb_subset_input_set(input: number, which: number): number;
  hb_subset_input_set_flags(input: number, flags: number): void;
  hb_subset_or_fail(face: number, input: number): number;
}

const READONLY = 1; // HB_MEMORY_MODE_READONLY
const DROP_TABLE_TAG = 3; // HB_SUBSET_SETS_DROP_TABLE_TAG
const NO_HINTING = 1; // HB_SUBSET_FLAGS_NO_HINTING
const RETAIN_GIDS = 2; // HB_SUBSET_FLAGS_RETAIN_GIDS
// What a PDF's TrueType font program needs (PDF 32000-1, 9.9: the cmap, name, OS/2 and post tables are not
// read for a CIDFontType2 with a CIDToGIDMap); every other table is dropped, and with it GSUB's closure.
const KEEP = new Set(["head", "hhea", "maxp", "loca", "glyf", "hmtx"]);

let wasm: SubsetExports | undefined;

/**
 * HarfBuzz's subsetter (hb-subset, C compiled to WebAssembly; harfbuzzjs ships it beside the shaper), in
 * place of fontkit's JavaScript one. Compiled on first use (warm-up does it).
 */
function subsetter(): SubsetExports {
  if (wasm) return wasm;
  const path = createRequire(import.meta.url).resolve("harfbuzzjs/dist/harfbuzz-subset.wasm");
  const instance = new Instance(new Module(readFileSync(path)), {});
  wasm = instance.exports as unknown as SubsetExports;
  wasm._initialize();
  return wasm;
}

/**
 * Cuts a TrueType font down to `glyphs` (ids in `bytes`; glyph 0 and the parts of composite glyphs are
 * kept too), without hinting (PDF viewers scale outlines; DejaVu's instructions are most of its bytes).
 * Glyph ids are renumbered in their original order, as hb-subset does; the count is checked against
 * the subset's own, and on any difference the ids are kept as they were instead.
 */
export function subsetFont(bytes: Uint8Array, glyphs: Iterable<number>): Subset {
  const closure = glyphClosure(bytes, glyphs);
  const compact = runSubset(bytes, closure, NO_HINTING);
  if (numGlyphs(compact) === closure.length) return { bytes: compact, newId: new Map(closure.map((id, i) => [id, i])) };
  return { bytes: runSubset(bytes, closure, NO_HINTING | RETAIN_GIDS), newId: new Map(closure.map((id) => [id, id])) };
}

function runSubset(bytes: Uint8Array, glyphs: readonly number[], flags: number): Uint8Array {
  const hb = subsetter();
  const data = hb.malloc(bytes.byteLength);
  new Uint8Array(hb.memory.buffer).set(bytes, data);
  const blob = hb.hb_blob_create(data, bytes.byteLength, READONLY, 0, 0);
  const face = hb.hb_face_create(blob, 0);
  const input = hb.hb_subset_input_create_or_fail();
  try {
    const glyphSet = hb.hb_subset_input_glyph_set(input);
    for (const id of glyphs) hb.hb_set_add(glyphSet, id);
    const drop = hb.hb_subset_input_set(input, DROP_TABLE_TAG);
    for (const tag of tableDirectory(bytes).keys()) if (!KEEP.has(tag)) hb.hb_set_add(drop, tagNumber(tag));
    hb.hb_subset_input_set_flags(input, flags);
    const subset = hb.hb_subset_or_fail(face, input);
    if (!subset) throw new Error("hb-subset failed on a shipped font");
    const out = hb.hb_face_reference_blob(subset);
    const length = hb.malloc(4);
    const at = hb.hb_blob_get_data(out, length);
    const result = new Uint8Array(hb.memory.buffer, at, new DataView(hb.memory.buffer).getUint32(length, true)).slice();
    hb.free(length);
    hb.hb_blob_destroy(out);
    hb.hb_face_destroy(subset);
    return result;
  } finally {
    hb.hb_subset_input_destroy(input);
    hb.hb_face_destroy(face);
    hb.hb_blob_destroy(blob);
    hb.free(data);
  }
}

const tagNumber = (tag: string) => ((tag.charCodeAt(0) << 24) | (tag.charCodeAt(1) << 16) | (tag.charCodeAt(2) << 8) | tag.charCodeAt(3)) >>> 0;

function numGlyphs(font: Uint8Array): number {
  return table(font, tableDirectory(font), "maxp").getUint16(4);
}

// Composite glyph flags (OpenType glyf table).
const ARG_1_AND_2_ARE_WORDS = 0x1;
const WE_HAVE_A_SCALE = 0x8;
const MORE_COMPONENTS = 0x20;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x40;
const WE_HAVE_A_TWO_BY_TWO = 0x80;

/** `glyphs`, glyph 0 and every component of a composite among them, sorted (what hb-subset keeps). */
export function glyphClosure(bytes: Uint8Array, glyphs: Iterable<number>): number[] {
  const tables = tableDirectory(bytes);
  const head = table(bytes, tables, "head");
  const loca = table(bytes, tables, "loca");
  const glyf = table(bytes, tables, "glyf");
  const count = table(bytes, tables, "maxp").getUint16(4);
  const long = head.getInt16(50) === 1;
  const offset = (id: number) => (long ? loca.getUint32(id * 4) : loca.getUint16(id * 2) * 2);
  const kept = new Set<number>();
  const add = (id: number) => {
    if (kept.has(id) || id >= count) return;
    kept.add(id);
    const start = offset(id);
    if (offset(id + 1) - start < 10 || glyf.getInt16(start) >= 0) return;
    // A composite: flags, glyph index, arguments and transform per component.
    for (let at = start + 10; ; ) {
      const flags = glyf.getUint16(at);
      add(glyf.getUint16(at + 2));
      at += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
      at += flags & WE_HAVE_A_SCALE ? 2 : flags & WE_HAVE_AN_X_AND_Y_SCALE ? 4 : flags & WE_HAVE_A_TWO_BY_TWO ? 8 : 0;
      if (!(flags & MORE_COMPONENTS)) break;
    }
  };
  add(0);
  for (const id of glyphs) add(id);
  return [...kept].sort((a, b) => a - b);
}
