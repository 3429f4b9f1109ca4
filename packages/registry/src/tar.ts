import { crc32, deflateRawSync } from "node:zlib";

/** One file of an archive: a relative POSIX path (no `.` or `..` parts) and its bytes. */
export interface ArchiveFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * The fixed modification time of every entry (2000-01-01T00:00:00Z): archives depend on content only,
 * so the same commit always gives the same bytes and SHA-256 (the marketplace's `archive_sha256`).
 */
export const ARCHIVE_MTIME = 946_684_800;

const BLOCK = 512;
const RECORD = 20 * BLOCK;

/**
 * Writes a reproducible `.tar.gz` of `files` under one top-level directory `root` (Selu strips a single
 * common top directory when it extracts): ustar entries sorted by path, directories made explicit,
 * uid/gid 0, fixed mtime and modes, no links, and a gzip header with no name, no time and a fixed OS byte.
 *
 * @throws Error naming the path when a path is absolute, has `.`/`..` parts, is duplicated, or is too
 * long for a ustar header (255 bytes, with at most 100 after the last split point).
 */
export function writeTarGz(root: string, files: readonly ArchiveFile[]): Buffer {
  return gzip(writeTar(root, files));
}

/** The uncompressed ustar stream {@link writeTarGz} compresses. */
export function writeTar(root: string, files: readonly ArchiveFile[]): Buffer {
  checkPath(root);
  const entries = new Map<string, Uint8Array | undefined>([[`${root}/`, undefined]]);
  for (const file of files) {
    checkPath(file.path);
    const full = `${root}/${file.path}`;
    if (entries.has(full)) throw new Error(`${file.path}: listed twice in the archive`);
    const parts = file.path.split("/");
    for (let i = 1; i < parts.length; i++) entries.set(`${root}/${parts.slice(0, i).join("/")}/`, undefined);
    entries.set(full, file.bytes);
  }
  const blocks: Buffer[] = [];
  for (const path of [...entries.keys()].sort(compareBytes)) {
    const bytes = entries.get(path);
    blocks.push(header(path, bytes));
    if (bytes && bytes.length > 0) {
      blocks.push(Buffer.from(bytes));
      const pad = (BLOCK - (bytes.length % BLOCK)) % BLOCK;
      if (pad > 0) blocks.push(Buffer.alloc(pad));
    }
  }
  blocks.push(Buffer.alloc(2 * BLOCK));
  const tar = Buffer.concat(blocks);
  return Buffer.concat([tar, Buffer.alloc((RECORD - (tar.length % RECORD)) % RECORD)]);
}

function checkPath(path: string): void {
  if (path === "" || path.startsWith("/") || path.split("/").some((p) => p === "" || p === "." || p === "..")) {
    throw new Error(`${JSON.stringify(path)}: expected a relative path without empty, "." or ".." parts`);
  }
}

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function header(path: string, bytes: Uint8Array | undefined): Buffer {
  const block = Buffer.alloc(BLOCK);
  const [prefix, name] = splitName(path);
  block.write(name, 0, 100, "utf8");
  octal(block, 100, 8, bytes ? 0o644 : 0o755);
  octal(block, 108, 8, 0); // uid
  octal(block, 116, 8, 0); // gid
  octal(block, 124, 12, bytes?.length ?? 0);
  octal(block, 136, 12, ARCHIVE_MTIME);
  block.fill(0x20, 148, 156); // checksum field counts as spaces while summing
  block.write(bytes ? "0" : "5", 156, 1, "ascii");
  block.write("ustar\0", 257, 6, "ascii");
  block.write("00", 263, 2, "ascii");
  octal(block, 329, 8, 0); // devmajor
  octal(block, 337, 8, 0); // devminor
  block.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return block;
}

/** ustar stores long paths as prefix + "/" + name, split at a slash (name ≤ 100 bytes, prefix ≤ 155). */
function splitName(path: string): [string, string] {
  if (Buffer.byteLength(path) <= 100) return ["", path];
  const trimmed = path.endsWith("/") ? path.slice(0, -1) : path;
  for (let i = trimmed.indexOf("/"); i !== -1; i = trimmed.indexOf("/", i + 1)) {
    const prefix = trimmed.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return [prefix, name];
  }
  throw new Error(`${path}: too long for a ustar header; shorten the file or directory names`);
}

function octal(block: Buffer, offset: number, size: number, value: number): void {
  block.write(`${value.toString(8).padStart(size - 1, "0")}\0`, offset, size, "ascii");
}

/**
 * gzip (RFC 1952) with a fixed header: no file name, mtime 0, XFL 2 (maximum compression), OS 255
 * (unknown), so the bytes don't depend on the machine. The deflate stream is zlib's at level 9.
 */
export function gzip(data: Buffer): Buffer {
  const head = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x02, 0xff]);
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(crc32(data) >>> 0, 0);
  tail.writeUInt32LE(data.length % 2 ** 32, 4);
  return Buffer.concat([head, deflateRawSync(data, { level: 9 }), tail]);
}
