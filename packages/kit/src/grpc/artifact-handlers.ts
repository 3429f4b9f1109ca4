import type { ArtifactChunk, DownloadOutputArtifactRequest, UploadInputArtifactChunk, UploadInputArtifactResponse } from "@selu-catalogue/proto";
import { sendDownload, type DownloadSink } from "../runtime/download.js";
import type { Runtime } from "../runtime/runtime.js";
import { Upload } from "../runtime/upload.js";
import { onCallCancelled } from "./call-cancelled.js";
import type { RequestStream, Respond, ResponseStream, SingleRequestCall } from "./server/index.js";

/** UploadInputArtifact over gRPC: chunks into the runtime's `Upload`, its one answer back. */
export function handleUpload(runtime: Runtime) {
  return (call: RequestStream<UploadInputArtifactChunk>, respond: Respond<UploadInputArtifactResponse>): void => {
    const upload = new Upload(runtime, (outcome) => {
      // Answered (stored or refused): whatever the client still sends is not read.
      call.stopReceiving();
      respond(null, outcome.ok ? { capabilityArtifactId: outcome.id, sizeBytes: outcome.size, error: "" } : { capabilityArtifactId: "", sizeBytes: 0, error: outcome.error });
    });
    call.receive(
      (chunk) => upload.write(chunk),
      () => upload.end(),
    );
    call.onCancel(() => upload.cancel());
  };
}

/** DownloadOutputArtifact over gRPC: the runtime's `sendDownload` into the call's stream. */
export function handleDownload(runtime: Runtime) {
  return (call: SingleRequestCall<DownloadOutputArtifactRequest> & ResponseStream<ArtifactChunk>): void => {
    const sink: DownloadSink = {
      write: (chunk, sent) => call.write(chunk, sent),
      end: () => call.end(),
      // Drops the stream with its unsent bytes: a client that stopped reading never takes them.
      reset: () => call.reset(),
    };
    void sendDownload(runtime, call.request.capabilityArtifactId, sink, onCallCancelled(call));
  };
}
