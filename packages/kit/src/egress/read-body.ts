import { finished, type Readable } from "node:stream";
import { formatBytes } from "../format.js";
import { EgressError } from "./errors.js";

/** Limits applied while a response body is read. */
export interface BodyLimits {
  maxBytes: number;
  /** Time allowed for the whole body, in ms. */
  totalMs: number;
  /** The target's host, for messages (never the URL: its query may hold secrets). */
  host: string;
  /** The response's content-length header, when it had one. */
  declaredLength?: string | string[] | undefined;
}

/**
 * Reads a response body into one Buffer, enforcing the size cap as bytes arrive: past `maxBytes` (or
 * when content-length already says so) the stream is destroyed, which closes the connection, so a huge
 * or endless response costs at most the cap in memory. A body that takes longer than `totalMs` in all is
 * destroyed too. Errors from the stream (abort, socket) propagate as they are for the caller to translate.
 * @throws {EgressError} `too_large` or `timeout`.
 */
export async function readCappedBody(body: Readable, limits: BodyLimits): Promise<Buffer> {
  const tooLarge = () => new EgressError("too_large", `the response from ${limits.host} is larger than the limit of ${formatBytes(limits.maxBytes)}`);
  const declared = Number(Array.isArray(limits.declaredLength) ? limits.declaredLength[0] : limits.declaredLength);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    body.destroy();
    throw tooLarge();
  }
  const timer = setTimeout(() => {
    body.destroy(new EgressError("timeout", `${limits.host} did not send the whole response within ${limits.totalMs} ms`));
  }, limits.totalMs);
  // Read with data events, each chunk copied into one growing buffer: a server sending a body a byte per
  // chunk costs millions of chunks, and an async iterator's promise per chunk, or keeping the chunks
  // themselves, made 4 MiB sent that way cost 70-100 MiB of memory (about 25 MiB this way).
  let buffer = Buffer.allocUnsafe(Math.min(limits.maxBytes, Number.isFinite(declared) && declared > 0 ? declared : INITIAL_BYTES));
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      body.on("data", (bytes: Buffer) => {
        if (total + bytes.byteLength > limits.maxBytes) {
          // Destroying the stream makes undici close the connection mid-response.
          reject(tooLarge());
          body.destroy();
          return;
        }
        if (total + bytes.byteLength > buffer.byteLength) {
          const grown = Buffer.allocUnsafe(Math.min(limits.maxBytes, Math.max(buffer.byteLength * 2, total + bytes.byteLength)));
          buffer.copy(grown, 0, 0, total);
          buffer = grown;
        }
        bytes.copy(buffer, total);
        total += bytes.byteLength;
      });
      // An error or a close before the end (abort, socket, the timer above) rejects; the first settles.
      finished(body, (err) => (err ? reject(err) : resolve()));
    });
  } finally {
    clearTimeout(timer);
  }
  return buffer.subarray(0, total);
}

/** The first buffer for a body without content-length; it doubles as the body grows. */
const INITIAL_BYTES = 64 * 1024;
