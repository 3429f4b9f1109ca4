import { inflateSync } from "node:zlib";
import { type SfntTable, writeSfnt } from "./sfnt.js";

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
  const tables: SfntTable[] = [];
  for (let i = 0; i < count; i++) {
    const at = 44 + i * 20;
    const offset = bytes.readUInt32BE(at + 4);
    const compLength = bytes.readUInt32BE(at + 8);
    const origLength = bytes.readUInt32BE(at + 12);
    const stored = bytes.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(stored) : stored;
    if (data.length !== origLength) throw new Error(`WOFF table ${i} inflates to ${data.length} bytes, expected ${origLength}`);
    tables.push({ tag: bytes.toString("latin1", at, at + 4), data, checksum: bytes.readUInt32BE(at + 16) });
  }
  return writeSfnt(flavor, tables);
}
