import type { Readable } from "node:stream";
import { formatBytes } from "../format.js";
import { collectCapped } from "../limits/collect-capped.js";
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
  try {
    const bytes = await collectCapped(body, limits.maxBytes, Number.isFinite(declared) ? declared : 0);
    if (!bytes) throw tooLarge();
    return bytes;
  } finally {
    clearTimeout(timer);
  }
}
