import type { ServiceError } from "@grpc/grpc-js";
import type { CapabilityClient } from "@selu-catalogue/proto";
import type { ArtifactVault } from "./artifact-vault.js";
import { download } from "./grpc-calls.js";
import { downloadFailed, grpcFailed, resultInline } from "./selu-wording.js";
import type { ArtifactSummary, TranscriptEntry } from "./types.js";

/** Raised to fail a call the way Selu fails it (the text is what the model sees after `Tool error: `). */
export class CallFailure extends Error {}

/**
 * Applies Selu's output-artifact rules to a parsed result (`capture_artifacts_from_result`): only
 * top-level `artifact` (object) and `artifacts` (array of objects) are looked at; an object there with
 * `data_base64` fails the call; one with a string `capability_artifact_id` is downloaded and replaced by
 * `{artifact_id, filename, mime_type, size_bytes}` (its other keys dropped). Returns the summaries stored.
 */
export async function rewriteResultArtifacts(
  result: Record<string, unknown>,
  ctx: { client: CapabilityClient; vault: ArtifactVault; owner: string; tool: string; log: (e: TranscriptEntry) => void },
): Promise<ArtifactSummary[]> {
  const stored: ArtifactSummary[] = [];
  const fetchOne = async (obj: Record<string, unknown>): Promise<Record<string, unknown>> => {
    if ("data_base64" in obj) throw new CallFailure(resultInline);
    const id = obj.capability_artifact_id;
    if (typeof id !== "string") return obj;
    const filename = typeof obj.filename === "string" ? obj.filename : "document.bin";
    const mimeType = typeof obj.mime_type === "string" ? obj.mime_type : "application/octet-stream";
    let got: Awaited<ReturnType<typeof download>>;
    try {
      got = await download(ctx.client, id);
    } catch (err) {
      throw new CallFailure(grpcFailed("download_output_artifact", err as ServiceError));
    }
    if ("error" in got) throw new CallFailure(downloadFailed(got.error));
    if (got.bytes.byteLength === 0) throw new CallFailure(`Capability artifact '${id}' returned no data`);
    const item = ctx.vault.store(ctx.owner, filename, mimeType, got.bytes);
    ctx.log({ kind: "download", tool: ctx.tool, capabilityArtifactId: id, artifactId: item.artifactId, filename, mimeType, sizeBytes: got.bytes.byteLength, chunks: got.chunks });
    const summary = { artifact_id: item.artifactId, filename, mime_type: mimeType, size_bytes: got.bytes.byteLength };
    stored.push(summary);
    return summary;
  };
  if (isObject(result.artifact)) result.artifact = await fetchOne(result.artifact);
  if (Array.isArray(result.artifacts)) {
    const list: unknown[] = [];
    for (const item of result.artifacts) list.push(isObject(item) ? await fetchOne(item) : item);
    result.artifacts = list;
  }
  return stored;
}

/** Things Selu silently ignores in a result, which are almost always a capability's mistake. */
export function resultFindings(result: Record<string, unknown>): string[] {
  const findings: string[] = [];
  if ("artifact_id" in result && !("artifact" in result)) {
    findings.push('result has a top-level "artifact_id", which Selu ignores: put {capability_artifact_id, filename, mime_type} under "artifact"');
  }
  for (const key of ["artifact", "artifacts"] as const) {
    const value = result[key];
    const items = key === "artifact" ? [value] : Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (item === undefined) continue;
      if (!isObject(item) || typeof item.capability_artifact_id !== "string") {
        findings.push(`result.${key} has no string capability_artifact_id, so Selu does not download it`);
      }
    }
  }
  return findings;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
