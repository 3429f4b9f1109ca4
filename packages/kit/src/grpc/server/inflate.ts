import type { InputType, ZlibOptions } from "node:zlib";
import { Status, type StatusError } from "./status.js";

type Inflate = (buffer: InputType, options: ZlibOptions, callback: (error: Error | null, result: Buffer) => void) => void;

/** The request encodings we read (what grpc-js read); we never compress answers. */
export const ACCEPTED_ENCODINGS = "identity,deflate,gzip";

/**
 * Decompresses one message with its call's `grpc-encoding`, never past `limit` bytes of output: a small
 * compressed message that inflates to gigabytes (a compression bomb) fails once it reaches the bound,
 * having allocated no more than that. zlib is loaded on the first compressed message only; clients
 * rarely compress (Selu does not).
 */
export async function inflate(bytes: Buffer, encoding: string | undefined, limit: number): Promise<Buffer> {
  if (encoding !== "gzip" && encoding !== "deflate") {
    throw statusError(
      encoding === undefined || encoding === "identity" ? Status.INTERNAL : Status.UNIMPLEMENTED,
      encoding === undefined || encoding === "identity"
        ? "a message is flagged compressed but the call names no grpc-encoding"
        : `grpc-encoding ${JSON.stringify(encoding)} is not supported; use one of ${ACCEPTED_ENCODINGS}`,
    );
  }
  const zlib = await import("node:zlib");
  const run: Inflate = encoding === "gzip" ? zlib.gunzip : zlib.inflate;
  return new Promise((resolve, reject) =>
    run(bytes, { maxOutputLength: limit }, (error, result) => {
      if (!error) return resolve(result);
      reject(
        (error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE"
          ? statusError(Status.RESOURCE_EXHAUSTED, `Received message larger than max once inflated (over ${limit} bytes, the largest request this server accepts)`)
          : statusError(Status.INTERNAL, `cannot decompress the request message (${encoding}): ${error.message}`),
      );
    }),
  );
}

function statusError(code: StatusError["code"], details: string): StatusError {
  return { code, details };
}
