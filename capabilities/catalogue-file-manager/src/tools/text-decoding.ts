import type { FileHandle } from "node:fs/promises";
import { ToolError } from "@selu-catalogue/kit";

export const ENCODINGS = ["auto", "utf-8", "utf-16le", "utf-16be", "windows-1252"] as const;
export type Encoding = (typeof ENCODINGS)[number];

const SNIFF_BYTES = 64 * 1024;

/**
 * Guesses a text file's encoding from its first 64 KiB: a byte-order mark, else UTF-8 when the bytes
 * are valid UTF-8, else Windows-1252 (which decodes any byte). NUL bytes without a UTF-16 mark mean
 * the file is binary.
 * @throws {ToolError} for a binary file, naming `path`.
 */
export function sniffEncoding(head: Buffer, path: string): { encoding: Exclude<Encoding, "auto">; bom: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: "utf-8", bom: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: "utf-16le", bom: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: "utf-16be", bom: 2 };
  if (head.subarray(0, 8192).includes(0)) {
    throw new ToolError(`path: ${path} looks binary (it has NUL bytes); read it with export_file, or pass an encoding if it is UTF-16 without a byte-order mark`);
  }
  return { encoding: isUtf8Prefix(head) ? "utf-8" : "windows-1252", bom: 0 };
}

/** Valid UTF-8, allowing a character cut at the end of the sample. */
function isUtf8Prefix(bytes: Buffer): boolean {
  let end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const b = bytes[end - back]!;
    if ((b & 0xc0) !== 0x80) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      if (need > back) end -= back;
      break;
    }
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}

/** Reads the start of a file for sniffing. */
export async function readHead(handle: FileHandle): Promise<Buffer> {
  const buffer = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
  return buffer.subarray(0, bytesRead);
}

/**
 * The file's lines (without their line ends), decoded as `encoding`, read in 64 KiB chunks so only the
 * current line is held. A line longer than `maxLineBytes` is cut, and yielded with `cut: true`.
 */
export async function* readLines(handle: FileHandle, encoding: Exclude<Encoding, "auto">, skip: number, maxLineBytes: number, signal?: AbortSignal): AsyncGenerator<{ text: string; cut: boolean }> {
  const decoder = new TextDecoder(encoding === "windows-1252" ? "windows-1252" : encoding);
  let pending = "";
  // After a line is cut, the rest of it is dropped up to its newline, so only maxLineBytes are held.
  let dropping = false;
  for await (const chunk of handle.createReadStream({ start: skip, highWaterMark: 64 * 1024, autoClose: false }) as AsyncIterable<Buffer>) {
    signal?.throwIfAborted();
    let text = decoder.decode(chunk, { stream: true });
    if (dropping) {
      const nl = text.indexOf("\n");
      if (nl < 0) continue;
      yield { text: stripCr(pending), cut: true };
      pending = "";
      dropping = false;
      text = text.slice(nl + 1);
    }
    pending += text;
    let from = 0;
    let nl: number;
    while ((nl = pending.indexOf("\n", from)) >= 0) {
      yield { text: stripCr(pending.slice(from, nl)), cut: false };
      from = nl + 1;
    }
    pending = pending.slice(from);
    // A character is at least one byte, so this many characters are enough to fill maxLineBytes.
    if (pending.length > maxLineBytes) {
      pending = pending.slice(0, maxLineBytes);
      dropping = true;
    }
  }
  if (dropping) yield { text: stripCr(pending), cut: true };
  else {
    pending += decoder.decode();
    if (pending !== "") yield { text: stripCr(pending), cut: false };
  }
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
