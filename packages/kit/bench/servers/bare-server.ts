// Bench child: the same trivial capability on a bare @grpc/grpc-js server, for comparison with the kit.
// Same work as the kit on the measured paths: parse args_json, check `text`, answer JSON; artifacts
// kept in memory under 128-bit random ids with the kit's default bounds (5 MiB per file, 16 MiB in all,
// least recently used evicted first); downloads in 256 KiB chunks with backpressure; uploads capped
// while they stream in. No health/reflection services, no validation library, no logging.
import { randomBytes } from "node:crypto";
import { Server, ServerCredentials, type sendUnaryData, type ServerReadableStream, type ServerUnaryCall, type ServerWritableStream } from "@grpc/grpc-js";
import {
  CapabilityService,
  type ArtifactChunk,
  type CapabilityServer,
  type DownloadOutputArtifactRequest,
  type InvokeChunk,
  type InvokeRequest,
  type InvokeResponse,
  type UploadInputArtifactChunk,
  type UploadInputArtifactResponse,
} from "@selu-catalogue/proto";
import { announce, benchPort, startReporting } from "./child.ts";

startReporting();

const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
const CHUNK_BYTES = 256 * 1024;
const MAX_ARTIFACT_BYTES = 5 * 1024 * 1024;
const BUDGET_BYTES = 16 * 1024 * 1024;
const EMPTY = Buffer.alloc(0);

interface Stored {
  filename: string;
  mimeType: string;
  size: number;
  chunks: Buffer[];
}

// Map order is recency order, as in the kit's store.
const store = new Map<string, Stored>();
let used = 0;

function put(item: Stored): string {
  for (const [id, old] of store) {
    if (used + item.size <= BUDGET_BYTES) break;
    store.delete(id);
    used -= old.size;
  }
  const id = randomBytes(16).toString("hex");
  store.set(id, item);
  used += item.size;
  return id;
}

function get(id: string): Stored | undefined {
  const item = store.get(id);
  if (item) {
    store.delete(id);
    store.set(id, item);
  }
  return item;
}

type Outcome = { ok: true; result: Record<string, unknown> } | { ok: false; error: string };

function run(request: InvokeRequest): Outcome {
  let args: unknown;
  try {
    args = JSON.parse(request.argsJson.toString("utf8"));
  } catch {
    return { ok: false, error: "args_json is not valid JSON" };
  }
  if (args === null || typeof args !== "object" || Array.isArray(args)) return { ok: false, error: "args_json must be a JSON object" };
  const a = args as Record<string, unknown>;
  switch (request.toolName) {
    case "echo":
      if (typeof a.text !== "string") return { ok: false, error: "invalid arguments for echo: text must be a string" };
      return { ok: true, result: { text: a.text } };
    case "make_file": {
      const size = a.size;
      if (typeof size !== "number" || !Number.isInteger(size) || size < 1 || size > MAX_ARTIFACT_BYTES) {
        return { ok: false, error: "invalid arguments for make_file: size" };
      }
      const id = put({ filename: "data.bin", mimeType: "application/octet-stream", size, chunks: [pattern(size)] });
      return { ok: true, result: { artifact: { capability_artifact_id: id, filename: "data.bin", mime_type: "application/octet-stream" } } };
    }
    default:
      return { ok: false, error: `unknown tool ${JSON.stringify(request.toolName)}` };
  }
}

function pattern(size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) & 0xff;
  return bytes;
}

function invoke(call: ServerUnaryCall<InvokeRequest, InvokeResponse>, callback: sendUnaryData<InvokeResponse>): void {
  const outcome = run(call.request);
  callback(null, outcome.ok ? { resultJson: Buffer.from(JSON.stringify(outcome.result), "utf8"), error: "" } : { resultJson: EMPTY, error: outcome.error });
}

function streamInvoke(call: ServerWritableStream<InvokeRequest, InvokeChunk>): void {
  const outcome = run(call.request);
  call.write(outcome.ok ? { data: Buffer.from(JSON.stringify(outcome.result), "utf8"), done: true, error: "" } : { data: EMPTY, done: true, error: outcome.error });
  call.end();
}

function upload(call: ServerReadableStream<UploadInputArtifactChunk, UploadInputArtifactResponse>, callback: sendUnaryData<UploadInputArtifactResponse>): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let filename = "";
  let mimeType = "";
  let first = true;
  let answered = false;
  call.on("data", (chunk: UploadInputArtifactChunk) => {
    if (answered) return;
    if (first) {
      first = false;
      filename = chunk.filename || "upload.bin";
      mimeType = chunk.mimeType || "application/octet-stream";
    }
    if (size + chunk.data.byteLength > MAX_ARTIFACT_BYTES) {
      answered = true;
      chunks.length = 0;
      callback(null, { capabilityArtifactId: "", sizeBytes: 0, error: "upload refused: larger than 5 MiB" });
      return;
    }
    size += chunk.data.byteLength;
    if (chunk.data.byteLength > 0) chunks.push(chunk.data);
  });
  call.on("end", () => {
    if (answered) return;
    answered = true;
    if (first) return callback(null, { capabilityArtifactId: "", sizeBytes: 0, error: "upload refused: no chunks were received" });
    const id = put({ filename, mimeType, size, chunks });
    callback(null, { capabilityArtifactId: id, sizeBytes: size, error: "" });
  });
  call.on("error", () => {
    answered = true;
    chunks.length = 0;
  });
}

function download(call: ServerWritableStream<DownloadOutputArtifactRequest, ArtifactChunk>): void {
  const item = get(call.request.capabilityArtifactId);
  if (!item) {
    call.write({ data: EMPTY, filename: "", mimeType: "", done: true, error: "unknown or expired artifact id" });
    call.end();
    return;
  }
  void (async () => {
    let sent = 0;
    let first = true;
    for (const chunk of item.chunks) {
      for (let offset = 0; offset < chunk.byteLength; offset += CHUNK_BYTES) {
        if (call.cancelled) return;
        const piece = chunk.subarray(offset, offset + CHUNK_BYTES);
        sent += piece.byteLength;
        const ok = call.write({
          data: piece,
          filename: first ? item.filename : "",
          mimeType: first ? item.mimeType : "",
          done: sent === item.size,
          error: "",
        });
        first = false;
        if (!ok) await drainedOrCancelled(call);
      }
    }
    call.end();
  })().catch(() => call.destroy());
}

function drainedOrCancelled(call: ServerWritableStream<DownloadOutputArtifactRequest, ArtifactChunk>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      call.off("drain", done);
      call.off("cancelled", done);
      resolve();
    };
    call.on("drain", done);
    call.on("cancelled", done);
  });
}

const implementation: CapabilityServer = {
  invoke,
  streamInvoke,
  healthcheck: (_call, callback) => callback(null, { ready: true, message: "ready" }),
  uploadInputArtifact: upload,
  downloadOutputArtifact: download,
};

const server = new Server({ "grpc.max_receive_message_length": MAX_MESSAGE_BYTES, "grpc.max_send_message_length": MAX_MESSAGE_BYTES });
server.addService(CapabilityService, implementation);
const port = await new Promise<number>((resolve, reject) => server.bindAsync(`127.0.0.1:${benchPort()}`, ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound))));
announce(port);
