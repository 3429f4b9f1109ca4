import type { ServiceError } from "@grpc/grpc-js";
import type { CapabilityClient } from "@selu-catalogue/proto";
import type { ArtifactVault } from "./artifact-vault.js";
import { upload, UPLOAD_CHUNK_BYTES } from "./grpc-calls.js";
import { CallFailure, isObject } from "./rewrite-results.js";
import { attachmentInline, attachmentNotFound, EMPTY_UPLOAD_ID, grpcFailed, uploadFailed } from "./selu-wording.js";
import type { TranscriptEntry } from "./types.js";

/**
 * Selu's input-artifact rules (`prepare_attachment_artifacts_for_capability`) for the top-level
 * `attachments` array: an element with `data_base64` fails the call; one with a `capability_artifact_id`
 * key (any type) passes unchanged; one with a string `artifact_id` is looked up for its owner, uploaded
 * into the same container and rewritten (`artifact_id` removed; `capability_artifact_id`, `filename`,
 * `mime_type` and `size_bytes`, counted by Selu, set; other keys kept).
 */
export async function uploadAttachments(list: unknown[], ctx: { client: CapabilityClient; vault: ArtifactVault; owner: string; tool: string; log: (e: TranscriptEntry) => void }): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [index, element] of list.entries()) {
    if (isObject(element) && "data_base64" in element) throw new CallFailure(attachmentInline(index));
    if (!isObject(element) || "capability_artifact_id" in element || typeof element.artifact_id !== "string") {
      out.push(element);
      continue;
    }
    const found = ctx.vault.take(ctx.owner, element.artifact_id);
    if ("error" in found) throw new CallFailure(attachmentNotFound(element.artifact_id));
    const res = await upload(ctx.client, found.bytes, found.filename, found.mimeType).catch((err: ServiceError) => {
      throw new CallFailure(grpcFailed("upload_input_artifact", err));
    });
    if (res.error) throw new CallFailure(uploadFailed(res.error));
    if (!res.capabilityArtifactId) throw new CallFailure(EMPTY_UPLOAD_ID);
    const { artifact_id: _dropped, ...rest } = element;
    ctx.log({
      kind: "upload",
      tool: ctx.tool,
      artifactId: found.artifactId,
      capabilityArtifactId: res.capabilityArtifactId,
      filename: found.filename,
      mimeType: found.mimeType,
      sizeBytes: found.bytes.byteLength,
      chunks: Math.max(1, Math.ceil(found.bytes.byteLength / UPLOAD_CHUNK_BYTES)),
    });
    out.push({ ...rest, capability_artifact_id: res.capabilityArtifactId, filename: found.filename, mime_type: found.mimeType, size_bytes: found.bytes.byteLength });
  }
  return out;
}
