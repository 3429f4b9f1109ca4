import { ToolError, wireError } from "../errors.js";
import { formatMs } from "../format.js";
import { ARTIFACT_CHUNK_BYTES } from "../limits.js";
import type { CancelSource } from "./linked-signal.js";
import type { Runtime } from "./runtime.js";

/** One chunk of a download, as DownloadOutputArtifact carries it. */
export interface DownloadChunk {
  data: Buffer;
  /** Set on the first chunk only. */
  filename: string;
  mimeType: string;
  done: boolean;
  error: string;
}

/** Where a download goes: the transport's side of one stream. */
export interface DownloadSink {
  /** Hands one chunk to the transport; `sent` is called once its bytes have left the process. */
  write(chunk: DownloadChunk, sent: () => void): void;
  /** Ends the stream normally (after the last chunk, or after an error chunk). */
  end(): void;
  /**
   * Drops the stream at once, unsent bytes included: its client stopped reading, or shutdown came. An
   * error chunk could never reach such a client, so `reason` is for the logs and the status.
   */
  reset(reason: string): void;
}

const EMPTY = Buffer.alloc(0);

/**
 * One DownloadOutputArtifact, whatever the transport: 256 KiB chunks, name and type on the first, `done`
 * on the last, an error chunk for an unknown or expired id. At most one chunk of a stream is waiting to
 * leave the process, and at most `limits.downloadBufferBytes` across all downloads (an HTTP/2 stream
 * queues whatever it is given, whatever its size: `sent` is the only push back). A client that reads nothing for
 * `limits.transferIdleMs`, or a download still running after `limits.downloadTimeoutMs`, is cut.
 * Resolves when the stream is done; never rejects.
 */
export async function sendDownload(runtime: Runtime, id: string, sink: DownloadSink, cancel?: CancelSource): Promise<void> {
  const { limits } = runtime.capability;
  const item = runtime.store.get(id);
  if (!item || item.kind !== "output") {
    const shown = JSON.stringify(id.slice(0, 64));
    const minutes = Math.round(limits.artifactTtlMs / 60_000);
    const error =
      !item && runtime.store.wasEvicted(id)
        ? `artifact ${shown} was dropped from the capability's memory, which files of calls running at once had filled; make it again`
        : `unknown or expired artifact id ${shown}; artifacts are kept for ${minutes} minutes`;
    sink.write({ data: EMPTY, filename: "", mimeType: "", done: true, error }, noop);
    sink.end();
    return;
  }
  // Asked for, so among the first to go when room is short: Selu downloads an output once.
  runtime.store.markUsed(id);
  const scope = runtime.link("transfer", "the download", limits.downloadTimeoutMs, cancel);
  const buffer = runtime.downloadBuffer;
  let unsent = 0;
  try {
    let first = true;
    let offered = 0;
    for (const piece of rechunk(item.chunks, ARTIFACT_CHUNK_BYTES)) {
      const waited = await buffer.acquire(piece.byteLength, scope.signal);
      unsent = piece.byteLength;
      if (waited) {
        // Room is freed in bursts (many clients cancel at once): let their cancellations arrive before
        // writing into streams that may be gone.
        await new Promise((resolve) => setImmediate(resolve));
        scope.signal.throwIfAborted();
      }
      offered += piece.byteLength;
      const written = waitUntilSent(scope.signal, limits.transferIdleMs);
      sink.write({ data: piece, filename: first ? item.filename : "", mimeType: first ? item.mimeType : "", done: offered === item.size, error: "" }, written.sent);
      first = false;
      await written.promise;
      buffer.release(unsent);
      unsent = 0;
    }
    if (first) sink.write({ data: EMPTY, filename: item.filename, mimeType: item.mimeType, done: true, error: "" }, noop);
    sink.end();
  } catch (err) {
    buffer.release(unsent);
    const reason = wireError(err, { subject: "the download", signal: scope.signal, log: runtime.log });
    runtime.log.info("download cut", { error: reason });
    sink.reset(reason);
  } finally {
    scope.dispose();
  }
}

/** A promise of one chunk leaving the process, failing when its client reads nothing for `idleMs`. */
function waitUntilSent(signal: AbortSignal, idleMs: number): { promise: Promise<void>; sent: () => void } {
  let sent!: () => void;
  const promise = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => settle(new ToolError(`the download stalled: its client read nothing for ${formatMs(idleMs)}`)), idleMs);
    const onAbort = () => settle(signal.reason);
    const settle = (err?: unknown) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      if (err === undefined) resolve();
      else reject(err);
    };
    sent = () => settle();
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  return { promise, sent };
}

function noop(): void {}

/** Re-slices stored chunks into pieces of at most `size` bytes, copying only across chunk borders. */
function* rechunk(chunks: readonly Buffer[], size: number): Generator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for (const chunk of chunks) {
    let offset = 0;
    while (offset < chunk.byteLength) {
      const take = Math.min(size - pendingBytes, chunk.byteLength - offset);
      const slice = chunk.subarray(offset, offset + take);
      offset += take;
      if (pendingBytes === 0 && take === size) {
        yield slice;
        continue;
      }
      pending.push(slice);
      pendingBytes += take;
      if (pendingBytes === size) {
        yield Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
      }
    }
  }
  if (pendingBytes > 0) yield pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
}
