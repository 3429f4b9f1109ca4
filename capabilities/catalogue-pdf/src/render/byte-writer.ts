// PDF syntax written straight into bytes: a dictionary built as a JavaScript string is a chain of small
// strings (a few dozen bytes of heap each) that is then flattened and converted, where its bytes are all
// that is wanted. A report's 2,860 structure elements were ~3.5 MB of such strings.

const EMPTY = Buffer.alloc(0);

/** A growing buffer of bytes, one a character (Latin-1, as pdfkit converts what it writes). */
export class ByteWriter {
  bytes: Buffer;
  length = 0;
  readonly #capacity: number;

  constructor(capacity = 4096) {
    this.#capacity = capacity;
    this.bytes = Buffer.allocUnsafe(capacity);
  }

  /** The bytes written, handed over (not copied); the writer starts again empty, with a new buffer when next written to. */
  take(): Buffer {
    const taken = this.bytes.subarray(0, this.length);
    this.bytes = EMPTY;
    this.length = 0;
    return taken;
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    const needed = this.length + n;
    if (needed <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(needed, this.bytes.length * 2, this.#capacity));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  byte(code: number): void {
    this.reserve(1);
    this.bytes[this.length++] = code;
  }

  /** `text`, one byte a character (its low byte, as pdfkit and Buffer's latin1 keep). */
  text(text: string): void {
    const n = text.length;
    this.reserve(n);
    const { bytes } = this;
    let at = this.length;
    if (n > 64) {
      at += bytes.write(text, at, "latin1");
    } else {
      for (let i = 0; i < n; i++) bytes[at++] = text.charCodeAt(i) & 0xff;
    }
    this.length = at;
  }

  /** `n` as String(n) writes it; a small integer digit by digit, so without a string. */
  number(n: number): void {
    if (!Number.isInteger(n) || n > 0x7fffffff || n < -0x7fffffff) {
      this.text(String(n));
      return;
    }
    if (n < 0) {
      this.byte(0x2d);
      n = -n;
    }
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    this.reserve(digits);
    for (let i = this.length + digits - 1; i >= this.length; i--) {
      this.bytes[i] = 0x30 + (n % 10);
      n = Math.floor(n / 10);
    }
    this.length += digits;
  }

  /** `bytes` copied in. */
  append(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** The bytes written, as a string (one character a byte). */
  toString(): string {
    return this.bytes.toString("latin1", 0, this.length);
  }
}
