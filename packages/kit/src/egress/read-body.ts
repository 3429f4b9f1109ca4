import type { Readable } from "node:stream";
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
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body) {
      const bytes = chunk as Buffer;
      total += bytes.byteLength;
      // Leaving the loop destroys the stream; undici then closes the connection mid-response.
      if (total > limits.maxBytes) throw tooLarge();
      chunks.push(bytes);
    }
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks, total);
}
