import { gunzipSync } from "node:zlib";

/** The most an archive may hold once decompressed; agent packages are a few dozen kilobytes. */
export const MAX_EXTRACTED_BYTES = 16 * 1024 * 1024;

/**
 * Reads a `.tar.gz` agent archive as Selu's installer does, but refusing what Selu only skips or
 * rewrites: the single common top-level directory is stripped (contract section 7), and a path that
 * would escape the target (absolute, `..`), a link or any entry other than a file or directory is an
 * error naming the entry. Returns the files by their path inside the package.
 *
 * @throws Error when the data is not gzip, is larger than {@link MAX_EXTRACTED_BYTES} decompressed
 * (checked by zlib while inflating), or holds an entry described above.
 */
export function extractTarGz(data: Uint8Array): Map<string, Buffer> {
  let tar: Buffer;
  try {
    tar = gunzipSync(data, { maxOutputLength: MAX_EXTRACTED_BYTES });
  } catch (error) {
    throw new Error(`archive: not a gzip stream within ${MAX_EXTRACTED_BYTES} bytes: ${(error as Error).message}`, { cause: error });
  }
  const entries = readEntries(tar);
  const tops = new Set(entries.map((e) => e.path.split("/")[0]));
  const strip = tops.size === 1 ? `${[...tops][0]}/` : "";
  const files = new Map<string, Buffer>();
  for (const entry of entries) {
    const path = entry.path.startsWith(strip) ? entry.path.slice(strip.length) : entry.path;
    if (entry.type === "dir" || path === "") continue;
    files.set(path.replace(/\/$/, ""), entry.data);
  }
  return files;
}

interface Entry {
  path: string;
  type: "file" | "dir";
  data: Buffer;
}

function readEntries(tar: Buffer): Entry[] {
  const entries: Entry[] = [];
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const block = tar.subarray(offset, offset + 512);
    if (block.every((b) => b === 0)) break;
    if (!checksumMatches(block)) throw new Error(`archive: the header at byte ${offset} has a wrong checksum`);
    const name = text(block, 0, 100);
    const prefix = block.toString("ascii", 257, 262) === "ustar" ? text(block, 345, 155) : "";
    const path = prefix ? `${prefix}/${name}` : name;
    const size = Number.parseInt(text(block, 124, 12).trim() || "0", 8);
    const flag = String.fromCharCode(block[156]!);
    checkEntryPath(path);
    if (flag === "1" || flag === "2") throw new Error(`archive: ${path} is a link; agent packages hold files and directories only`);
    if (flag !== "0" && flag !== "\0" && flag !== "5") throw new Error(`archive: ${path} has entry type ${JSON.stringify(flag)}; expected a file or directory`);
    const start = offset + 512;
    if (start + size > tar.length) throw new Error(`archive: ${path} is cut short (${size} bytes declared)`);
    entries.push({ path, type: flag === "5" ? "dir" : "file", data: Buffer.from(tar.subarray(start, start + size)) });
    offset = start + Math.ceil(size / 512) * 512;
  }
  return entries;
}

function checkEntryPath(path: string): void {
  const parts = path.replace(/\/$/, "").split("/");
  if (path.startsWith("/") || parts.some((p) => p === ".." || p === "")) {
    throw new Error(`archive: ${JSON.stringify(path)} would escape the agent's directory`);
  }
}

function text(block: Buffer, start: number, size: number): string {
  const raw = block.subarray(start, start + size);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? size : end).toString("utf8");
}

function checksumMatches(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return Number.parseInt(text(block, 148, 8).trim(), 8) === sum;
}
