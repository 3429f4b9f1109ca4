import { credentials, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { CapabilityClient, type ArtifactChunk, type InvokeRequest, type InvokeResponse } from "@selu-catalogue/proto";

/** What the Selu orchestrator dials with: 16 MiB each way. */
const CHANNEL_OPTIONS = {
  "grpc.max_receive_message_length": 16 * 1024 * 1024,
  "grpc.max_send_message_length": 16 * 1024 * 1024,
  // Selu polls readiness every 200 ms; grpc-js's default 1 s reconnect backoff would hide a fast start.
  "grpc.initial_reconnect_backoff_ms": 100,
  "grpc.max_reconnect_backoff_ms": 200,
};
/** Selu's per-call timer (tonic's channel `timeout`): 120 s until the response headers arrive. */
export const RPC_DEADLINE_MS = 120_000;
/** Selu's upload chunk size. */
export const UPLOAD_CHUNK_BYTES = 256 * 1024;

export function connect(address: string): CapabilityClient {
  return new CapabilityClient(address, credentials.createInsecure(), CHANNEL_OPTIONS);
}

export async function healthcheck(client: CapabilityClient, timeoutMs = 1_000): Promise<boolean> {
  return (await healthStatus(client, timeoutMs)) === "ready";
}

/** One Healthcheck: ready, answered not ready (or failed otherwise), or no server there to answer. */
export function healthStatus(client: CapabilityClient, timeoutMs = 1_000): Promise<"ready" | "not ready" | "unreachable"> {
  return new Promise((resolve) =>
    client.healthcheck({}, new Metadata(), { deadline: Date.now() + timeoutMs }, (err, res) =>
      resolve(err?.code === status.UNAVAILABLE ? "unreachable" : !err && res?.ready === true ? "ready" : "not ready"),
    ),
  );
}

/** The status tonic gives when its channel timeout fires: CANCELLED, "Timeout expired". */
export function timeoutExpired(): ServiceError {
  return Object.assign(new Error(`${status.CANCELLED} CANCELLED: Timeout expired`), {
    code: status.CANCELLED,
    details: "Timeout expired",
    metadata: new Metadata(),
  });
}

/**
 * Selu's timer, as tonic runs it: no `grpc-timeout` header goes out (the server sees no deadline); the
 * client cancels the call if no response headers arrived within `ms`, and the timer stops at the headers.
 */
function headerTimer(call: { cancel(): void; once(event: "metadata", fn: () => void): unknown }, ms: number, onExpire: () => void) {
  const timer = setTimeout(() => {
    onExpire();
    call.cancel();
  }, ms);
  call.once("metadata", () => clearTimeout(timer));
  return () => clearTimeout(timer);
}

export interface InvokeCallOptions {
  /** Selu's client-side timer from now, in ms (default 120 s); stops when the response headers arrive. */
  deadlineMs?: number;
  /** Cancels the call, as Selu does when the user stops a turn. */
  signal?: AbortSignal;
}

/**
 * One Invoke as Selu sends it (no `grpc-timeout` header); rejects with the grpc-js ServiceError on a
 * status (CANCELLED "Timeout expired" when Selu's timer fires); a tool's own failure comes back in
 * `InvokeResponse.error`.
 */
export function invoke(client: CapabilityClient, request: InvokeRequest, options: InvokeCallOptions = {}): Promise<InvokeResponse> {
  return new Promise((resolve, reject) => {
    let expired = false;
    const call = client.invoke(request, new Metadata(), {}, (err: ServiceError | null, res?: InvokeResponse) => {
      stop();
      options.signal?.removeEventListener("abort", cancel);
      if (err) reject(expired ? timeoutExpired() : err);
      else resolve(res!);
    });
    const stop = headerTimer(call, options.deadlineMs ?? RPC_DEADLINE_MS, () => (expired = true));
    const cancel = () => call.cancel();
    if (options.signal?.aborted) cancel();
    else options.signal?.addEventListener("abort", cancel, { once: true });
  });
}

/** Uploads as Selu does: 256 KiB chunks, filename/MIME on the first only, an empty file as one empty chunk. */
export function upload(client: CapabilityClient, bytes: Buffer, filename: string, mimeType: string) {
  return new Promise<{ capabilityArtifactId: string; sizeBytes: number; error: string }>((resolve, reject) => {
    let expired = false;
    const stream = client.uploadInputArtifact(new Metadata(), {}, (err, res) => {
      stop();
      if (err) reject(expired ? timeoutExpired() : err);
      else resolve(res!);
    });
    const stop = headerTimer(stream, RPC_DEADLINE_MS, () => (expired = true));
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
    let expired = false;
    const stream = client.downloadOutputArtifact({ capabilityArtifactId: id }, new Metadata(), {});
    // Selu's timer bounds a download only until its headers (with the first chunk); the total is unbounded.
    const stop = headerTimer(stream, RPC_DEADLINE_MS, () => (expired = true));
    const finish = (value: { bytes: Buffer; chunks: number } | { error: string }) => {
      if (settled) return;
      settled = true;
      stop();
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
    stream.on("error", (err: ServiceError) => {
      if (settled || (err.code === status.CANCELLED && !expired)) return;
      settled = true;
      stop();
      reject(expired ? timeoutExpired() : err);
    });
  });
}
