// The parts of the ZIP format (PKWARE APPNOTE 6.3) this capability reads and writes: stored and
// deflated entries, UTF-8 names, Unix modes; no ZIP64, no encryption, no multi-disk archives.

export const SIG = Object.freeze({ local: 0x04034b50, central: 0x02014b50, end: 0x06054b50, descriptor: 0x08074b50, zip64End: 0x06064b50 });
export const METHOD = Object.freeze({ stored: 0, deflated: 8 });
export const FLAG = Object.freeze({ encrypted: 0x1, descriptor: 0x8, utf8: 0x800 });
/** The 16-bit and 32-bit fields' ceilings: beyond them an archive needs ZIP64, which is refused. */
export const MAX_ENTRIES = 0xffff;
export const MAX_U32 = 0xffffffff;

/** Unix file type bits in the upper half of "external attributes" (made by Unix). */
export const S_IFMT = 0o170000;
export const S_IFREG = 0o100000;
export const S_IFDIR = 0o040000;
export const S_IFLNK = 0o120000;

/** MS-DOS date and time, as ZIP stores modification times (local time, 2-second steps). */
export function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, Math.min(2107, date.getFullYear()));
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}
