import { finished, type Readable } from "node:stream";

/** The first buffer for a stream of unknown length; it doubles as the bytes arrive. */
const INITIAL_BYTES = 64 * 1024;

/**
 * Reads `stream` to its end into one Buffer, or resolves `undefined` (and destroys the stream, which
 * closes its connection) as soon as it passes `maxBytes`. An error or a close before the end rejects.
 *
 * Data events, each chunk copied into one growing buffer: a peer sending a byte per chunk sends millions
 * of chunks, and an async iterator's promise per chunk, or keeping the chunks themselves, made 4 MiB sent
 * that way cost 70-100 MiB of memory (about 25 MiB this way). `sizeHint` (a declared length) sizes the
 * first buffer.
 */
export async function collectCapped(stream: Readable, maxBytes: number, sizeHint = 0): Promise<Buffer | undefined> {
  let buffer = Buffer.allocUnsafe(Math.min(maxBytes, sizeHint > 0 ? sizeHint : INITIAL_BYTES));
  let total = 0;
  const complete = await new Promise<boolean>((resolve, reject) => {
    stream.on("data", (bytes: Buffer) => {
      if (total + bytes.byteLength > maxBytes) {
        resolve(false);
        stream.destroy();
        return;
      }
      if (total + bytes.byteLength > buffer.byteLength) {
        const grown = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(buffer.byteLength * 2, total + bytes.byteLength)));
        buffer.copy(grown, 0, 0, total);
        buffer = grown;
      }
      bytes.copy(buffer, total);
      total += bytes.byteLength;
    });
    // The first to settle wins: a close after `resolve(false)` above changes nothing.
    finished(stream, (err) => (err ? reject(err) : resolve(true)));
  });
  return complete ? buffer.subarray(0, total) : undefined;
}
