import { credentials, Metadata, type ServiceError } from "@grpc/grpc-js";
import { CapabilityClient, type ArtifactChunk, type InvokeRequest, type InvokeResponse } from "@selu-catalogue/proto";

/** What the Selu orchestrator dials with: 16 MiB each way. */
const CHANNEL_OPTIONS = {
  "grpc.max_receive_message_length": 16 * 1024 * 1024,
  "grpc.max_send_message_length": 16 * 1024 * 1024,
  // Selu polls readiness every 200 ms; grpc-js's default 1 s reconnect backoff would hide a fast start.
  "grpc.initial_reconnect_backoff_ms": 100,
  "grpc.max_reconnect_backoff_ms": 200,
};
/** Selu's per-RPC deadline. */
export const RPC_DEADLINE_MS = 120_000;
/** Selu's upload chunk size. */
export const UPLOAD_CHUNK_BYTES = 256 * 1024;

export function connect(address: string): CapabilityClient {
  return new CapabilityClient(address, credentials.createInsecure(), CHANNEL_OPTIONS);
}

const deadline = (ms = RPC_DEADLINE_MS) => ({ deadline: Date.now() + ms });

export function healthcheck(client: CapabilityClient, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) =>
    client.healthcheck({}, new Metadata(), deadline(timeoutMs), (err, res) => resolve(!err && res?.ready === true)),
  );
}

export interface InvokeCallOptions {
  /** The call's deadline from now, in ms (default Selu's 120 s). */
  deadlineMs?: number;
  /** Cancels the call, as Selu does when the user stops a turn. */
  signal?: AbortSignal;
}

/**
 * One Invoke as Selu sends it; rejects with the grpc-js ServiceError on DEADLINE_EXCEEDED, CANCELLED
 * and other statuses (a tool's own failure comes back in `InvokeResponse.error`).
 */
export function invoke(client: CapabilityClient, request: InvokeRequest, options: InvokeCallOptions = {}): Promise<InvokeResponse> {
  return new Promise((resolve, reject) => {
    const call = client.invoke(request, new Metadata(), deadline(options.deadlineMs), (err: ServiceError | null, res?: InvokeResponse) => {
      options.signal?.removeEventListener("abort", cancel);
      if (err) reject(err);
      else resolve(res!);
    });
    const cancel = () => call.cancel();
    if (options.signal?.aborted) cancel();
    else options.signal?.addEventListener("abort", cancel, { once: true });
  });
}

/** Uploads as Selu does: 256 KiB chunks, filename/MIME on the first only, an empty file as one empty chunk. */
export function upload(client: CapabilityClient, bytes: Buffer, filename: string, mimeType: string) {
  return new Promise<{ capabilityArtifactId: string; sizeBytes: number; error: string }>((resolve, reject) => {
    const stream = client.uploadInputArtifact(deadline(), (err, res) => (err ? reject(err) : resolve(res!)));
    let offset = 0;
    do {
      const first = offset === 0;
      stream.write({ filename: first ? filename : "", mimeType: first ? mimeType : "", data: bytes.subarray(offset, offset + UPLOAD_CHUNK_BYTES) });
      offset += UPLOAD_CHUNK_BYTES;
    } while (offset < bytes.byteLength);
    stream.end();
  });
}

/** Downloads as Selu does: concatenates until `done` or end of stream; an error chunk fails it. */
export function download(client: CapabilityClient, id: string): Promise<{ bytes: Buffer; chunks: number } | { error: string }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let settled = false;
    const stream = client.downloadOutputArtifact({ capabilityArtifactId: id }, deadline());
    const finish = (value: { bytes: Buffer; chunks: number } | { error: string }) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    stream.on("data", (chunk: ArtifactChunk) => {
      if (chunk.error) {
        finish({ error: chunk.error });
        stream.cancel();
        return;
      }
      parts.push(chunk.data);
      if (chunk.done) {
        finish({ bytes: Buffer.concat(parts), chunks: parts.length });
        stream.cancel();
      }
    });
    stream.on("end", () => finish({ bytes: Buffer.concat(parts), chunks: parts.length }));
    stream.on("error", (err: ServiceError) => (settled ? undefined : err.code === 1 ? undefined : reject(err)));
  });
}
