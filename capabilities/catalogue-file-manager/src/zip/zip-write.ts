import { pipeline } from "node:stream/promises";
import { crc32, createDeflateRaw } from "node:zlib";
import { dosDateTime, FLAG, MAX_ENTRIES, MAX_U32, METHOD, S_IFDIR, S_IFREG, SIG } from "./format.js";

/** One entry to archive: a directory, or a file whose content is read only when its turn comes. */
export interface ZipSource {
  /** Name inside the archive, "/"-separated, without a trailing slash. */
  name: string;
  directory: boolean;
  modified: Date;
  content?: () => AsyncIterable<Uint8Array>;
}

interface Written {
  name: Buffer;
  directory: boolean;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  time: { time: number; date: number };
}

/**
 * Streams a ZIP archive of `sources`: each file deflated as it is read (sizes and CRC in a data
 * descriptor after the data, so nothing is held in memory), then the central directory.
 * @throws Error when the archive would need ZIP64 (over 65,535 entries or 4 GiB).
 */
export async function* zipStream(sources: AsyncIterable<ZipSource> | Iterable<ZipSource>, signal?: AbortSignal): AsyncGenerator<Buffer> {
  const written: Written[] = [];
  let offset = 0;
  const emit = (b: Buffer) => ((offset += b.byteLength), b);
  for await (const source of sources) {
    signal?.throwIfAborted();
    if (written.length >= MAX_ENTRIES) throw new Error(`an archive can hold at most ${MAX_ENTRIES} entries`);
    const name = Buffer.from(source.directory ? `${source.name}/` : source.name, "utf8");
    const entry: Written = {
      name,
      directory: source.directory,
      method: source.directory ? METHOD.stored : METHOD.deflated,
      crc: 0,
      compressed: 0,
      size: 0,
      offset,
      time: dosDateTime(source.modified),
    };
    yield emit(localHeader(entry));
    if (!source.directory && source.content) {
      const deflate = createDeflateRaw({ level: 6 });
      const feeding = pipeline(countInto(source.content(), entry), deflate);
      for await (const chunk of deflate as AsyncIterable<Buffer>) {
        entry.compressed += chunk.byteLength;
        yield emit(chunk);
      }
      await feeding;
      if (offset > MAX_U32) throw new Error("the archive would be larger than 4 GiB, which needs ZIP64");
      yield emit(descriptor(entry));
    }
    written.push(entry);
  }
  const start = offset;
  for (const entry of written) yield emit(centralHeader(entry));
  yield emit(endRecord(written.length, offset - start, start));
}

async function* countInto(content: AsyncIterable<Uint8Array>, entry: Written): AsyncGenerator<Uint8Array> {
  for await (const chunk of content) {
    entry.crc = crc32(chunk, entry.crc);
    entry.size += chunk.byteLength;
    yield chunk;
  }
}

function localHeader(e: Written): Buffer {
  const b = Buffer.alloc(30);
  b.writeUInt32LE(SIG.local, 0);
  b.writeUInt16LE(20, 4);
  b.writeUInt16LE(FLAG.utf8 | (e.directory ? 0 : FLAG.descriptor), 6);
  b.writeUInt16LE(e.method, 8);
  b.writeUInt16LE(e.time.time, 10);
  b.writeUInt16LE(e.time.date, 12);
  // CRC and sizes are 0 here and follow the data in the descriptor (general purpose flag bit 3).
  b.writeUInt16LE(e.name.byteLength, 26);
  return Buffer.concat([b, e.name]);
}

function descriptor(e: Written): Buffer {
  const b = Buffer.alloc(16);
  b.writeUInt32LE(SIG.descriptor, 0);
  b.writeUInt32LE(e.crc >>> 0, 4);
  b.writeUInt32LE(e.compressed, 8);
  b.writeUInt32LE(e.size, 12);
  return b;
}

function centralHeader(e: Written): Buffer {
  const b = Buffer.alloc(46);
  b.writeUInt32LE(SIG.central, 0);
  b.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the modes below are read
  b.writeUInt16LE(20, 6);
  b.writeUInt16LE(FLAG.utf8 | (e.directory ? 0 : FLAG.descriptor), 8);
  b.writeUInt16LE(e.method, 10);
  b.writeUInt16LE(e.time.time, 12);
  b.writeUInt16LE(e.time.date, 14);
  b.writeUInt32LE(e.crc >>> 0, 16);
  b.writeUInt32LE(e.compressed, 20);
  b.writeUInt32LE(e.size, 24);
  b.writeUInt16LE(e.name.byteLength, 28);
  b.writeUInt32LE((((e.directory ? S_IFDIR | 0o755 : S_IFREG | 0o644) << 16) | (e.directory ? 0x10 : 0)) >>> 0, 38);
  b.writeUInt32LE(e.offset, 42);
  return Buffer.concat([b, e.name]);
}

function endRecord(entries: number, size: number, offset: number): Buffer {
  const b = Buffer.alloc(22);
  b.writeUInt32LE(SIG.end, 0);
  b.writeUInt16LE(entries, 8);
  b.writeUInt16LE(entries, 10);
  b.writeUInt32LE(size, 12);
  b.writeUInt32LE(offset, 16);
  return b;
}
