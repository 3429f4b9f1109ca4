/** One table of an OpenType (sfnt) file: its tag, bytes and checksum (computed when left out). */
export interface SfntTable {
  tag: string;
  data: Uint8Array;
  checksum?: number;
}

/** The table records of an sfnt: tag → [offset, length]. */
export function tableDirectory(bytes: Uint8Array): Map<string, [number, number]> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = new Map<string, [number, number]>();
  const count = view.getUint16(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const tag = String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
    tables.set(tag, [view.getUint32(at + 8), view.getUint32(at + 12)]);
  }
  return tables;
}

/** A view of one table; throws naming it when the font lacks it. */
export function table(bytes: Uint8Array, tables: Map<string, [number, number]>, tag: string): DataView {
  const record = tables.get(tag);
  if (!record) throw new Error(`the font has no ${tag} table`);
  return new DataView(bytes.buffer, bytes.byteOffset + record[0], record[1]);
}

/**
 * An OpenType file of `tables` behind a table directory (https://learn.microsoft.com/typography/opentype/spec/otff):
 * records sorted by tag, each table padded to 4 bytes.
 */
export function writeSfnt(flavor: number, tables: readonly SfntTable[]): Buffer {
  const sorted = [...tables].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  const headerLength = 12 + 16 * sorted.length;
  const out = Buffer.alloc(sorted.reduce((sum, t) => sum + align4(t.data.length), headerLength));
  const power = 2 ** Math.floor(Math.log2(sorted.length));
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(sorted.length, 4);
  out.writeUInt16BE(power * 16, 6);
  out.writeUInt16BE(Math.log2(power), 8);
  out.writeUInt16BE(sorted.length * 16 - power * 16, 10);
  let offset = headerLength;
  sorted.forEach((t, i) => {
    const at = 12 + i * 16;
    out.write(t.tag, at, "latin1");
    out.set(t.data, offset);
    out.writeUInt32BE(t.checksum ?? checksum(out, offset, align4(t.data.length)), at + 4);
    out.writeUInt32BE(offset, at + 8);
    out.writeUInt32BE(t.data.length, at + 12);
    offset += align4(t.data.length);
  });
  return out;
}

function checksum(bytes: Buffer, at: number, length: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, length);
  let sum = 0;
  for (let i = 0; i < length; i += 4) sum = (sum + view.getUint32(i)) >>> 0;
  return sum;
}

const align4 = (n: number) => (n + 3) & ~3;
