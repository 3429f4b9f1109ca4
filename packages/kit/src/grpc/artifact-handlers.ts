import type { ServerReadableStream, ServerWritableStream, sendUnaryData } from "@grpc/grpc-js";
import type {
  ArtifactChunk,
  DownloadOutputArtifactRequest,
  UploadInputArtifactChunk,
  UploadInputArtifactResponse,
} from "@selu-catalogue/proto";
import type { ArtifactWriter } from "../artifacts/store.js";
import { ToolError } from "../errors.js";
import { ARTIFACT_CHUNK_BYTES } from "../limits.js";
import type { Runtime } from "../runtime/runtime.js";

const EMPTY = Buffer.alloc(0);

/**
 * UploadInputArtifact: stores the chunks as they arrive and refuses the upload as soon as it passes
 * the per-file cap, answering at once instead of reading the rest.
 */
export function handleUpload(runtime: Runtime) {
  return (
    call: ServerReadableStream<UploadInputArtifactChunk, UploadInputArtifactResponse>,
    callback: sendUnaryData<UploadInputArtifactResponse>,
  ): void => {
    let writer: ArtifactWriter | undefined;
    let answered = false;
    const answer = (response: Partial<UploadInputArtifactResponse>) => {
      if (answered) return;
      answered = true;
      call.removeAllListeners("data");
      callback(null, { capabilityArtifactId: "", sizeBytes: 0, error: "", ...response });
    };
    const refuse = (err: unknown) => {
      writer?.abort();
      const error = err instanceof ToolError ? err.message : "the upload could not be stored";
      if (!(err instanceof ToolError)) runtime.log.error("upload failed", { error: String(err) });
      runtime.log.info("upload refused", { error });
      answer({ error: `upload refused: ${error}` });
    };
    call.on("data", (chunk: UploadInputArtifactChunk) => {
      try {
        writer ??= runtime.store.begin({
          kind: "input",
          filename: chunk.filename || "upload.bin",
          mimeType: chunk.mimeType || "application/octet-stream",
        });
        writer.write(chunk.data);
      } catch (err) {
        refuse(err);
      }
    });
    call.on("end", () => {
      if (answered) return;
      if (!writer) return answer({ error: "upload refused: no chunks were received" });
      const item = writer.finish();
      runtime.log.debug("upload stored", { bytes: item.size, mime: item.mimeType });
      answer({ capabilityArtifactId: item.id, sizeBytes: item.size });
    });
    call.on("error", () => writer?.abort());
    call.once("cancelled", () => {
      writer?.abort();
      answered = true;
    });
  };
}

/**
 * DownloadOutputArtifact: 256 KiB chunks with backpressure, filename and MIME type on the first,
 * `done` on the last; an error chunk for an unknown or expired id.
 */
export function handleDownload(runtime: Runtime) {
  return (call: ServerWritableStream<DownloadOutputArtifactRequest, ArtifactChunk>): void => {
    void stream(runtime, call).catch((err: unknown) => {
      runtime.log.error("download failed", { error: String(err) });
      call.destroy();
    });
  };
}

async function stream(runtime: Runtime, call: ServerWritableStream<DownloadOutputArtifactRequest, ArtifactChunk>) {
  const id = call.request.capabilityArtifactId;
  const item = runtime.store.get(id);
  if (!item || item.kind !== "output") {
    call.write({
      data: EMPTY,
      filename: "",
      mimeType: "",
      done: true,
      error: `unknown or expired artifact id ${JSON.stringify(id.slice(0, 64))}; artifacts are kept for ${Math.round(runtime.capability.limits.artifactTtlMs / 60_000)} minutes`,
    });
    call.end();
    return;
  }
  let first = true;
  let sent = 0;
  for (const piece of rechunk(item.chunks, ARTIFACT_CHUNK_BYTES)) {
    if (call.cancelled) return;
    sent += piece.byteLength;
    const ok = call.write({
      data: piece,
      filename: first ? item.filename : "",
      mimeType: first ? item.mimeType : "",
      done: sent === item.size,
      error: "",
    });
    first = false;
    if (!ok) await drainOrCancel(call);
  }
  if (first) call.write({ data: EMPTY, filename: item.filename, mimeType: item.mimeType, done: true, error: "" });
  call.end();
}

/** Waits for room to write or for cancellation, leaving no listener behind. */
function drainOrCancel(call: ServerWritableStream<DownloadOutputArtifactRequest, ArtifactChunk>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      call.removeListener("drain", done);
      call.removeListener("cancelled", done);
      resolve();
    };
    call.once("drain", done);
    call.once("cancelled", done);
  });
}

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
