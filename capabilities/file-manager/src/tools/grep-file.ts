import type { FileHandle } from "node:fs/promises";

const CHUNK = 1024 * 1024;
const NL = 0x0a;

/** How a file's content is searched: bytes for a case-sensitive literal, text for a regular expression. */
export type Matcher = { kind: "bytes"; needle: Buffer } | { kind: "regex"; re: RegExp };

/**
 * Searches one file line by line in 1 MiB blocks (only a block and one partial line are held) and calls
 * `onMatch` with the 1-based line number and the line's text for each matching line, once per line.
 * Returns false when `onMatch` asked to stop. A literal is found with Buffer.indexOf on the raw bytes,
 * with lines counted only up to each hit.
 */
export async function grepFile(handle: FileHandle, matcher: Matcher, onMatch: (line: number, text: string) => boolean, signal?: AbortSignal): Promise<boolean> {
  let carry: Buffer = Buffer.alloc(0);
  let lineBase = 1;
  const buffer = Buffer.allocUnsafe(CHUNK);
  for (let position = 0; ; ) {
    signal?.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
    position += bytesRead;
    const eof = bytesRead === 0;
    const data = carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, bytesRead)]) : buffer.subarray(0, bytesRead);
    // Search up to the last complete line; a line longer than a block is searched in pieces.
    let end = eof ? data.length : data.lastIndexOf(NL) + 1;
    if (end === 0 && data.length >= CHUNK) end = data.length;
    const block = data.subarray(0, end);
    const result = matcher.kind === "bytes" ? searchBytes(block, matcher.needle, lineBase, onMatch) : searchText(block, matcher.re, lineBase, onMatch);
    if (result === false) return false;
    lineBase = result;
    carry = Buffer.from(data.subarray(end));
    if (eof) return true;
  }
}

/** Returns the line number after the block, or false when told to stop. */
function searchBytes(block: Buffer, needle: Buffer, lineBase: number, onMatch: (line: number, text: string) => boolean): number | false {
  let line = lineBase;
  let counted = 0;
  for (let hit = block.indexOf(needle); hit >= 0; ) {
    const start = block.lastIndexOf(NL, hit - 1) + 1;
    let stop = block.indexOf(NL, hit);
    if (stop < 0) stop = block.length;
    line += countNewlines(block, counted, start);
    counted = start;
    if (!onMatch(line, block.toString("utf8", start, stop))) return false;
    hit = stop + 1 < block.length ? block.indexOf(needle, stop + 1) : -1;
  }
  return line + countNewlines(block, counted, block.length);
}

function searchText(block: Buffer, re: RegExp, lineBase: number, onMatch: (line: number, text: string) => boolean): number | false {
  const text = block.toString("utf8");
  let line = lineBase;
  let counted = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = text.lastIndexOf("\n", m.index - 1) + 1;
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

function countNewlines(block: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = block.indexOf(NL, from); i >= 0 && i < to; i = block.indexOf(NL, i + 1)) n++;
  return n;
}
