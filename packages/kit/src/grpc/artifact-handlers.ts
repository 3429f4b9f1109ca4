import { constants as http2 } from "node:http2";
import type { ServerReadableStream, ServerWritableStream, sendUnaryData } from "@grpc/grpc-js";
import type { ArtifactChunk, DownloadOutputArtifactRequest, UploadInputArtifactChunk, UploadInputArtifactResponse } from "@selu-catalogue/proto";
import { sendDownload, type DownloadSink } from "../runtime/download.js";
import type { Runtime } from "../runtime/runtime.js";
import { Upload } from "../runtime/upload.js";
import { onCallCancelled } from "./call-cancelled.js";

/** UploadInputArtifact over gRPC: chunks into the runtime's `Upload`, its one answer back. */
export function handleUpload(runtime: Runtime) {
  return (call: ServerReadableStream<UploadInputArtifactChunk, UploadInputArtifactResponse>, callback: sendUnaryData<UploadInputArtifactResponse>): void => {
    const upload = new Upload(runtime, (outcome) => {
      // Answered (stored or refused): whatever the client still sends is not read.
      call.removeAllListeners("data");
      callback(null, outcome.ok ? { capabilityArtifactId: outcome.id, sizeBytes: outcome.size, error: "" } : { capabilityArtifactId: "", sizeBytes: 0, error: outcome.error });
    });
    call.on("data", (chunk: UploadInputArtifactChunk) => upload.write(chunk));
    call.on("end", () => upload.end());
    call.on("error", () => upload.cancel());
    call.once("cancelled", () => upload.cancel());
  };
}

/** DownloadOutputArtifact over gRPC: the runtime's `sendDownload` into the call's stream. */
export function handleDownload(runtime: Runtime) {
  return (call: ServerWritableStream<DownloadOutputArtifactRequest, ArtifactChunk>): void => {
    const sink: DownloadSink = {
      write: (chunk, sent) => void call.write(chunk, sent),
      end: () => call.end(),
      reset: () => resetStream(call),
    };
    void sendDownload(runtime, call.request.capabilityArtifactId, sink, onCallCancelled(call));
  };
}

/**
 * Drops a call's HTTP/2 stream with its unsent bytes. grpc-js has no public way: ending the call waits for
 * the queued messages, which a client that stopped reading never takes.
 */
function resetStream(call: ServerWritableStream<DownloadOutputArtifactRequest, ArtifactChunk>): void {
  const stream = (call as unknown as { call?: { stream?: { close?: (code: number) => void; destroyed?: boolean } } }).call?.stream;
  if (typeof stream?.close === "function") {
    if (!stream.destroyed) stream.close(http2.NGHTTP2_CANCEL);
  } else {
    call.destroy();
  }
}
