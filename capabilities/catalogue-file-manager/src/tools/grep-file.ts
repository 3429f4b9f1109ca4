import type { FileHandle } from "node:fs/promises";

/** Bytes read at a time: most files are searched in one read, and a block without a hit is never line-counted at the end of its file. */
export const GREP_BLOCK_BYTES = 8 * 1024 * 1024;
/** Blocks searched by a regular expression, decoded to a string first: kept small for the heap. */
export const GREP_TEXT_BLOCK_BYTES = 1024 * 1024;
const NL = 0x0a;

/**
 * How a file's content is searched: bytes for a case-sensitive literal; for a regular expression, the
 * lines holding its required literal (`literal`, lowercase ASCII when `fold`), or else the whole text.
 */
export type Matcher = { kind: "bytes"; needle: Buffer } | { kind: "regex"; re: RegExp; literal?: Buffer | undefined; fold?: boolean };

/**
 * Searches one file of `size` bytes line by line in blocks read into `scratch.block` (one block and one partial
 * line are held) and calls `onMatch` with the 1-based line number and the line's text of each matching
 * line, once per line. Returns false when `onMatch` asked to stop. A literal is found with Buffer.indexOf
 * on the raw bytes, and lines are counted only up to each hit (and over a whole block only when more of
 * the file follows), which keeps a search of files without hits at the speed of memmem.
 */
export async function grepFile(
  handle: FileHandle,
  size: number,
  matcher: Matcher,
  onMatch: (line: number, text: string) => boolean,
  scratch: { block: Buffer; folded?: Buffer | undefined },
  signal?: AbortSignal,
): Promise<boolean> {
  const folded = matcher.kind === "regex" && matcher.fold && matcher.literal ? (scratch.folded ??= Buffer.allocUnsafeSlow(scratch.block.length)) : undefined;
  const buffer = scratch.block;
  let carry: Buffer = Buffer.alloc(0);
  let lineBase = 1;
  for (let position = 0; ; ) {
    signal?.throwIfAborted();
    const room = buffer.length - carry.length;
    carry.copy(buffer, 0);
    const { bytesRead } = await handle.read(buffer, carry.length, Math.max(0, room), position);
    position += bytesRead;
    const eof = bytesRead === 0 || position >= size;
    const data = buffer.subarray(0, carry.length + bytesRead);
    // Search up to the last complete line; a line longer than the block is searched in pieces.
    let end = eof ? data.length : data.lastIndexOf(NL) + 1;
    if (end === 0) end = data.length;
    const block = data.subarray(0, end);
    const result =
      matcher.kind === "bytes"
        ? searchBytes(block, block, matcher.needle, undefined, lineBase, onMatch, !eof)
        : matcher.literal
          ? searchBytes(block, folded ? lowerAscii(block, folded) : block, matcher.literal, matcher.re, lineBase, onMatch, !eof)
          : searchText(block, matcher.re, lineBase, onMatch);
    if (result === false) return false;
    lineBase = result;
    if (eof) return true;
    carry = Buffer.from(data.subarray(end));
  }
}

/**
 * Finds `needle` in `haystack` (the block itself, or its lowercased copy) and reports each line holding
 * it, when `re` (if any) matches that line. Returns the line number after the block, or false to stop.
 */
function searchBytes(block: Buffer, haystack: Buffer, needle: Buffer, re: RegExp | undefined, lineBase: number, onMatch: (line: number, text: string) => boolean, more: boolean): number | false {
  let line = lineBase;
  let counted = 0;
  for (let hit = haystack.indexOf(needle); hit >= 0; ) {
    // (lastIndexOf with a negative offset would search from the end: a hit at 0 starts line 1 of the block.)
    const start = hit === 0 ? 0 : block.lastIndexOf(NL, hit - 1) + 1;
    let stop = block.indexOf(NL, hit);
    if (stop < 0) stop = block.length;
    const text = block.toString("utf8", start, stop);
    if (re) re.lastIndex = 0;
    if (!re || re.test(text)) {
      line += countNewlines(block, counted, start);
      counted = start;
      if (!onMatch(line, text)) return false;
    }
    hit = stop + 1 < block.length ? haystack.indexOf(needle, stop + 1) : -1;
  }
  return more ? line + countNewlines(block, counted, block.length) : line;
}

/**
 * ASCII letters of `block` lowercased into `into` (same length), for a case-insensitive literal search;
 * four bytes a step (SWAR: a byte in A..Z gets 0x20 added, other bytes, UTF-8 ones included, stay).
 */
export function lowerAscii(block: Buffer, into: Buffer): Buffer {
  const out = into.subarray(0, block.length);
  let i = 0;
  if (block.byteOffset % 4 === 0 && out.byteOffset % 4 === 0) {
    const n = Math.floor(block.length / 4);
    const src = new Uint32Array(block.buffer, block.byteOffset, n);
    const dst = new Uint32Array(out.buffer, out.byteOffset, n);
    for (let w = 0; w < n; w++) {
      const x = src[w]!;
      const low = x & 0x7f7f7f7f;
      // High bit per byte: >= 0x41 and not > 0x5a and not a byte >= 0x80.
      const upper = (low + 0x3f3f3f3f) & ~(low + 0x25252525) & ~x & 0x80808080;
      dst[w] = x | (upper >>> 2);
    }
    i = n * 4;
  }
  for (; i < block.length; i++) {
    const b = block[i]!;
    out[i] = b >= 0x41 && b <= 0x5a ? b | 0x20 : b;
  }
  return out;
}

function searchText(block: Buffer, re: RegExp, lineBase: number, onMatch: (line: number, text: string) => boolean): number | false {
  const text = block.toString("utf8");
  let line = lineBase;
  let counted = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index === 0 ? 0 : text.lastIndexOf("\n", m.index - 1) + 1;
    let stop = text.indexOf("\n", m.index);
    if (stop < 0) stop = text.length;
    for (let i = text.indexOf("\n", counted); i >= 0 && i < start; i = text.indexOf("\n", i + 1)) line++;
    counted = start;
    if (!onMatch(line, text.slice(start, stop))) return false;
    re.lastIndex = stop + 1;
    if (re.lastIndex > text.length) break;
  }
  for (let i = text.indexOf("\n", counted); i >= 0; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Newlines in block[from, to): four bytes a step (SWAR: a zero byte of x ^ 0x0a0a… is a newline). */
export function countNewlines(block: Buffer, from: number, to: number): number {
  let n = 0;
  let i = from;
  for (; i < to && (block.byteOffset + i) % 4 !== 0; i++) if (block[i] === NL) n++;
  if (i >= to) return n;
  const words = new Uint32Array(block.buffer, block.byteOffset + i, Math.floor((to - i) / 4));
  for (let w = 0; w < words.length; w++) {
    const x = words[w]! ^ 0x0a0a0a0a;
    // Exact zero-byte mask: high bit set in each byte of x that is zero.
    const t = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);
    if (t !== 0) n += (((t >>> 7) & 0x01010101) * 0x01010101) >>> 24;
  }
  for (i += words.length * 4; i < to; i++) if (block[i] === NL) n++;
  return n;
}
