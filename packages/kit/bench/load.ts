// The load generator: a client from the generated contract, calling as Selu does (one channel,
// 16 MiB messages, 256 KiB upload chunks). Selu's 120 s limit is a timer on its own side and sends no
// grpc-timeout (contract section 2), so these calls carry no deadline either: one would make grpc-js
// arm a deadline timer per call in both servers, work a served capability never does. Every loop is
// bounded in count and in time, and run.ts's watchdog ends a bench that hangs.
import { credentials, Metadata, type ServiceError } from "@grpc/grpc-js";
import { CapabilityClient, type ArtifactChunk, type InvokeRequest, type InvokeResponse } from "@selu-catalogue/proto";

const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
export const CHUNK_BYTES = 256 * 1024;

const CLIENT_OPTIONS = {
  "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
  "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
  // Each client gets its own connection: nothing shared between the servers or between spawns.
  "grpc.use_local_subchannel_pool": 1,
};

export function connect(port: number): CapabilityClient {
  return new CapabilityClient(`127.0.0.1:${port}`, credentials.createInsecure(), CLIENT_OPTIONS);
}

export function invokeRequest(toolName: string, args: unknown): InvokeRequest {
  return {
    toolName,
    argsJson: Buffer.from(JSON.stringify(args)),
    configJson: Buffer.from("{}"),
    sessionId: "0b6f8c8e-5d1f-4a8e-9a3b-1f2e3d4c5b6a",
    capabilityId: "bench",
    threadId: "",
  };
}

export function invoke(client: CapabilityClient, request: InvokeRequest): Promise<InvokeResponse> {
  return new Promise((resolve, reject) => client.invoke(request, (err: ServiceError | null, res?: InvokeResponse) => (err ? reject(err) : resolve(res!))));
}

/** Invokes and fails loudly on a tool error: the bench is broken then, not slow. */
async function invokeOk(client: CapabilityClient, request: InvokeRequest): Promise<InvokeResponse> {
  const res = await invoke(client, request);
  if (res.error) throw new Error(`${request.toolName} failed: ${res.error}`);
  return res;
}

/** `count` sequential calls (stopping early after `maxMs`); each round trip in µs. */
export async function latency(client: CapabilityClient, request: InvokeRequest, count: number, maxMs: number): Promise<number[]> {
  const samples: number[] = [];
  const end = performance.now() + maxMs;
  for (let i = 0; i < count && performance.now() < end; i++) {
    const t0 = performance.now();
    await invokeOk(client, request);
    samples.push((performance.now() - t0) * 1000);
  }
  return samples;
}

export interface Throughput {
  calls: number;
  ms: number;
  perSecond: number;
}

/** `concurrency` callers of `request` in a loop for `durationMs` (at most `maxCalls` calls in all). */
export function throughput(client: CapabilityClient, request: InvokeRequest, concurrency: number, durationMs: number, maxCalls: number): Promise<Throughput> {
  return repeat(() => invokeOk(client, request), concurrency, durationMs, maxCalls);
}

/** `concurrency` callers of `one` in a loop for `durationMs` (at most `maxCalls` calls in all). */
export async function repeat(one: () => Promise<unknown>, concurrency: number, durationMs: number, maxCalls: number): Promise<Throughput> {
  let started = 0;
  let calls = 0;
  const t0 = performance.now();
  const end = t0 + durationMs;
  const worker = async () => {
    while (started < maxCalls && performance.now() < end) {
      started++;
      await one();
      calls++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = performance.now() - t0;
  return { calls, ms, perSecond: (calls * 1000) / ms };
}

/** An artifact of `size` bytes from the bench tool `make_file`; its id. */
export async function makeArtifact(client: CapabilityClient, size: number): Promise<string> {
  const res = await invoke(client, invokeRequest("make_file", { size }));
  if (res.error) throw new Error(`make_file failed: ${res.error}`);
  const id = (JSON.parse(res.resultJson.toString("utf8")) as { artifact?: { capability_artifact_id?: string } }).artifact?.capability_artifact_id;
  if (typeof id !== "string") throw new Error("make_file returned no artifact");
  return id;
}

/** Downloads an artifact whole; returns its size, checking Selu's rules (done on the last chunk, no error). */
export function download(client: CapabilityClient, id: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const stream = client.downloadOutputArtifact({ capabilityArtifactId: id });
    let bytes = 0;
    let done = false;
    stream.on("data", (chunk: ArtifactChunk) => {
      if (chunk.error) {
        stream.cancel();
        reject(new Error(`download failed: ${chunk.error}`));
        return;
      }
      bytes += chunk.data.byteLength;
      done ||= chunk.done;
    });
    stream.on("end", () => (done ? resolve(bytes) : reject(new Error("download ended without a done chunk"))));
    stream.on("error", reject);
  });
}

/** Uploads as Selu does: 256 KiB chunks, filename and MIME type on the first; resolves with the stored size. */
export function upload(client: CapabilityClient, bytes: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const stream = client.uploadInputArtifact((err, res) => {
      if (err) return reject(err);
      if (res!.error) return reject(new Error(`upload refused: ${res!.error}`));
      resolve(res!.sizeBytes);
    });
    for (let i = 0; i < bytes.byteLength; i += CHUNK_BYTES) {
      const first = i === 0;
      stream.write({
        filename: first ? "upload.bin" : "",
        mimeType: first ? "application/octet-stream" : "",
        data: bytes.subarray(i, i + CHUNK_BYTES),
      });
    }
    stream.end();
  });
}

/**
 * Polls Healthcheck every `intervalMs` (a fresh connection per attempt, so no reconnect backoff hides a
 * fast start) until ready; resolves with the time of the first ready answer (performance.now()).
 */
export async function pollReady(port: number, intervalMs: number, timeoutMs: number): Promise<number> {
  const t0 = performance.now();
  for (let attempt = 0; ; attempt++) {
    const now = performance.now();
    if (now - t0 > timeoutMs) throw new Error(`not ready on port ${port} within ${timeoutMs} ms`);
    const client = connect(port);
    const ready = await new Promise<boolean>((resolve) => client.healthcheck({}, new Metadata(), { deadline: Date.now() + 1_000 }, (err, res) => resolve(!err && res!.ready)));
    const at = performance.now();
    client.close();
    if (ready) return at;
    // Attempts on a fixed 20 ms grid from the first one.
    const next = t0 + (attempt + 1) * intervalMs;
    if (next > at) await new Promise((r) => setTimeout(r, next - at));
  }
}
