import { inflateSync } from "node:zlib";

const WOFF_SIGNATURE = 0x774f4646; // "wOFF"

/**
 * The plain OpenType bytes of a WOFF 1.0 file (https://www.w3.org/TR/WOFF/): each table inflated and laid
 * out behind a fresh table directory. HarfBuzz reads only plain OpenType, and the Noto packages ship WOFF.
 * Anything else is returned as is.
 */
export function woffToSfnt(bytes: Buffer): Buffer {
  if (bytes.length < 44 || bytes.readUInt32BE(0) !== WOFF_SIGNATURE) return bytes;
  const flavor = bytes.readUInt32BE(4);
  const count = bytes.readUInt16BE(12);
  const tables: { tag: number; checksum: number; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    const at = 44 + i * 20;
    const tag = bytes.readUInt32BE(at);
    const offset = bytes.readUInt32BE(at + 4);
    const compLength = bytes.readUInt32BE(at + 8);
    const origLength = bytes.readUInt32BE(at + 12);
    const stored = bytes.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(stored) : stored;
    if (data.length !== origLength) throw new Error(`WOFF table ${i} inflates to ${data.length} bytes, expected ${origLength}`);
    tables.push({ tag, checksum: bytes.readUInt32BE(at + 16), data });
  }
  // Tables are sorted by tag in an OpenType directory; data follows, each table padded to 4 bytes.
  tables.sort((a, b) => a.tag - b.tag);
  const headerLength = 12 + 16 * count;
  const total = tables.reduce((sum, t) => sum + align4(t.data.length), headerLength);
  const out = Buffer.alloc(total);
  const power = 2 ** Math.floor(Math.log2(count));
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(count, 4);
  out.writeUInt16BE(power * 16, 6);
  out.writeUInt16BE(Math.log2(power), 8);
  out.writeUInt16BE(count * 16 - power * 16, 10);
  let offset = headerLength;
  tables.forEach((table, i) => {
    const at = 12 + i * 16;
    out.writeUInt32BE(table.tag, at);
    out.writeUInt32BE(table.checksum, at + 4);
    out.writeUInt32BE(offset, at + 8);
    out.writeUInt32BE(table.data.length, at + 12);
    table.data.copy(out, offset);
    offset += align4(table.data.length);
  });
  return out;
}

const align4 = (n: number) => (n + 3) & ~3;
