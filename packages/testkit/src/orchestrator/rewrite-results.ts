import type { CapabilityClient } from "@selu-catalogue/proto";
import type { ArtifactVault } from "./artifact-vault.js";
import { download } from "./grpc-calls.js";
import type { TranscriptEntry } from "./types.js";

/** Raised to fail a call the way Selu fails it (the text is what the model sees). */
export class CallFailure extends Error {}

/**
 * Applies Selu's output-artifact rules to a parsed result: only top-level `artifact` (object) and
 * `artifacts` (array of objects) with a string `capability_artifact_id` are downloaded; each is replaced
 * by `{artifact_id, filename, mime_type, size_bytes}` and its other keys dropped.
 */
export async function rewriteResultArtifacts(
  result: Record<string, unknown>,
  ctx: { client: CapabilityClient; vault: ArtifactVault; owner: string; tool: string; log: (e: TranscriptEntry) => void },
): Promise<Record<string, unknown>> {
  const out = { ...result };
  const fetchOne = async (obj: Record<string, unknown>) => {
    if ("data_base64" in obj) throw new CallFailure("inline artifact data (data_base64) is not accepted");
    const id = obj.capability_artifact_id;
    if (typeof id !== "string") return obj;
    const filename = typeof obj.filename === "string" ? obj.filename : "document.bin";
    const mimeType = typeof obj.mime_type === "string" ? obj.mime_type : "application/octet-stream";
    const got = await download(ctx.client, id);
    if ("error" in got) throw new CallFailure(`artifact download failed: ${got.error}`);
    if (got.bytes.byteLength === 0) throw new CallFailure(`artifact download failed: no data for ${id}`);
    const stored = ctx.vault.store(ctx.owner, filename, mimeType, got.bytes);
    ctx.log({ kind: "download", tool: ctx.tool, capabilityArtifactId: id, artifactId: stored.artifactId, filename, mimeType, sizeBytes: got.bytes.byteLength, chunks: got.chunks });
    return { artifact_id: stored.artifactId, filename, mime_type: mimeType, size_bytes: got.bytes.byteLength };
  };
  if (isObject(out.artifact)) out.artifact = await fetchOne(out.artifact);
  if (Array.isArray(out.artifacts)) {
    const list: unknown[] = [];
    for (const item of out.artifacts) list.push(isObject(item) ? await fetchOne(item) : item);
    out.artifacts = list;
  }
  return out;
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
