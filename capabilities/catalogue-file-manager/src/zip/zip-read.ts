import { crc32, createInflateRaw } from "node:zlib";
import { ToolError } from "@selu-catalogue/kit";
import { FLAG, METHOD, S_IFDIR, S_IFLNK, S_IFMT, S_IFREG, SIG } from "./format.js";

/** Random access to an archive's bytes (a workspace file or an uploaded attachment). */
export interface ArchiveSource {
  readonly size: number;
  read(position: number, length: number): Promise<Buffer>;
}

/** One entry of the central directory, as the archive claims it (sizes are checked while inflating). */
export interface ZipEntry {
  /** The raw name, as stored. */
  name: string;
  kind: "file" | "directory" | "symlink" | "other";
  method: number;
  encrypted: boolean;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const END_MIN = 22;
const MAX_COMMENT = 0xffff;

/**
 * Reads the central directory of a ZIP archive. Refuses what isn't a ZIP, ZIP64 and multi-disk archives,
 * and archives with more than `maxEntries` entries, before anything is extracted.
 */
export async function readCentralDirectory(source: ArchiveSource, maxEntries: number): Promise<ZipEntry[]> {
  const tailLength = Math.min(source.size, END_MIN + MAX_COMMENT);
  const tail = await source.read(source.size - tailLength, tailLength);
  let end = -1;
  for (let i = tail.length - END_MIN; i >= 0; i--)
    if (tail.readUInt32LE(i) === SIG.end) {
      end = i;
      break;
    }
  if (end < 0) throw new ToolError("the file is not a ZIP archive (no end of central directory record)");
  const count = tail.readUInt16LE(end + 10);
  const size = tail.readUInt32LE(end + 12);
  const offset = tail.readUInt32LE(end + 16);
  if (tail.readUInt16LE(end + 4) !== 0 || tail.readUInt16LE(end + 8) !== count) throw new ToolError("multi-disk ZIP archives are not supported");
  if (count === 0xffff || offset === 0xffffffff || size === 0xffffffff) throw new ToolError("ZIP64 archives (over 65,535 entries or 4 GiB) are not supported");
  if (count > maxEntries) throw new ToolError(`the archive has ${count} entries; at most ${maxEntries} can be extracted at once`);
  if (offset + size > source.size) throw new ToolError("the archive is damaged: its central directory lies past the end of the file");
  const dir = await source.read(offset, size);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== SIG.central) throw new ToolError(`the archive is damaged: entry ${i + 1} of its central directory is unreadable`);
    const madeBy = dir.readUInt16LE(p + 4) >> 8;
    const flags = dir.readUInt16LE(p + 8);
    const nameLength = dir.readUInt16LE(p + 28);
    const skip = nameLength + dir.readUInt16LE(p + 30) + dir.readUInt16LE(p + 32);
    if (p + 46 + skip > dir.length) throw new ToolError(`the archive is damaged: entry ${i + 1} runs past its central directory`);
    const nameBytes = dir.subarray(p + 46, p + 46 + nameLength);
    // Names without the UTF-8 flag are CP437 by the spec; bytes above 0x7f are read as Latin-1, which
    // changes no separator or dot, so the path checks see what is extracted.
    const name = flags & FLAG.utf8 ? nameBytes.toString("utf8") : nameBytes.toString("latin1");
    const mode = madeBy === 3 ? dir.readUInt32LE(p + 38) >>> 16 : 0;
    entries.push({
      name,
      kind: kindOf(name, mode),
      method: dir.readUInt16LE(p + 10),
      encrypted: (flags & FLAG.encrypted) !== 0,
      crc: dir.readUInt32LE(p + 16),
      compressedSize: dir.readUInt32LE(p + 20),
      size: dir.readUInt32LE(p + 24),
      localOffset: dir.readUInt32LE(p + 42),
    });
    p += 46 + skip;
  }
  return entries;
}

function kindOf(name: string, mode: number): ZipEntry["kind"] {
  const type = mode & S_IFMT;
  if (type === S_IFLNK) return "symlink";
  if (type === S_IFDIR || (type === 0 && name.endsWith("/"))) return "directory";
  if (type === S_IFREG || type === 0) return name.endsWith("/") ? "directory" : "file";
  return "other";
}

/** Bounds on what one entry may inflate to, checked on the bytes actually produced (headers can lie). */
export interface InflateLimits {
  /** Largest output of this entry, in bytes. */
  maxBytes: number;
  /** Largest output per compressed byte (a bomb has thousands); applied past `ratioGraceBytes`. */
  maxRatio: number;
  ratioGraceBytes: number;
  /** Called before each output chunk is passed on (write quotas throw from here). */
  onBytes?: (n: number) => void;
  /** Names the entry in errors. */
  label: string;
}

const CHUNK = 64 * 1024;

/** Streams an entry's content, inflated and checked: bounds while inflating, then its CRC-32. */
export async function* entryContent(source: ArchiveSource, entry: ZipEntry, limits: InflateLimits, signal?: AbortSignal): AsyncGenerator<Buffer> {
  if (entry.encrypted) throw new ToolError(`${limits.label}: is encrypted; encrypted archives are not supported`);
  if (entry.method !== METHOD.stored && entry.method !== METHOD.deflated)
    throw new ToolError(`${limits.label}: uses compression method ${entry.method}; only stored and deflated entries are supported`);
  const header = await source.read(entry.localOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== SIG.local) throw new ToolError(`${limits.label}: the archive is damaged (no local header where the directory points)`);
  const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (start + entry.compressedSize > source.size) throw new ToolError(`${limits.label}: the archive is damaged (the entry runs past the end of the file)`);
  let produced = 0;
  let crc = 0;
  const check = (n: number) => {
    produced += n;
    if (produced > limits.maxBytes) throw new ToolError(`${limits.label}: inflates to more than ${limits.maxBytes} bytes, the limit per extracted file`);
    if (produced > limits.ratioGraceBytes && produced > limits.maxRatio * Math.max(1, entry.compressedSize)) {
      throw new ToolError(`${limits.label}: inflates more than ${limits.maxRatio} times its compressed size; refused as a likely ZIP bomb`);
    }
    limits.onBytes?.(n);
  };
  const raw = readRange(source, start, entry.compressedSize, signal);
  if (entry.method === METHOD.stored) {
    for await (const chunk of raw) {
      check(chunk.byteLength);
      crc = crc32(chunk, crc);
      yield chunk;
    }
  } else {
    const inflate = createInflateRaw({ chunkSize: CHUNK });
    const feeding = (async () => {
      try {
        for await (const chunk of raw) if (!inflate.write(chunk)) await new Promise((r) => inflate.once("drain", r));
        inflate.end();
      } catch (err) {
        inflate.destroy(err as Error);
      }
    })();
    try {
      for await (const chunk of inflate as AsyncIterable<Buffer>) {
        check(chunk.byteLength);
        crc = crc32(chunk, crc);
        yield chunk;
      }
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw new ToolError(`${limits.label}: the compressed data is damaged (${(err as Error).message})`);
    } finally {
      inflate.destroy();
      await feeding;
    }
  }
  if (produced !== entry.size || crc >>> 0 !== entry.crc) throw new ToolError(`${limits.label}: the extracted data does not match the archive's size or checksum (the archive is damaged)`);
}

async function* readRange(source: ArchiveSource, start: number, length: number, signal?: AbortSignal): AsyncGenerator<Buffer> {
  for (let done = 0; done < length; ) {
    signal?.throwIfAborted();
    const chunk = await source.read(start + done, Math.min(CHUNK, length - done));
    if (chunk.length === 0) throw new ToolError("the archive ended early");
    done += chunk.length;
    yield chunk;
  }
}
