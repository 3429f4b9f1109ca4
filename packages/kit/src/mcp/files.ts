// Files over MCP (issue 19): a tool's output artifacts become resources (`selu-artifact://<capability>/<id>`,
// read with resources/read), and `attachments` elements take such a uri or base64 content. Both end in the
// runtime's artifact store, under its per-file cap, budget and TTL, exactly as Selu's uploads do.
import type { ReadResourceResult, ResourceLink } from "@modelcontextprotocol/sdk/types.js";
import { ArgumentsError, ToolError } from "../errors.js";
import { formatBytes } from "../format.js";
import type { Runtime } from "../runtime/runtime.js";

const SCHEME = "selu-artifact:";

/** The resource uri of a stored artifact. */
export function artifactUri(capabilityId: string, id: string): string {
  return `${SCHEME}//${capabilityId}/${id}`;
}

/** The artifact id in a uri of this capability, or undefined. */
function artifactIdOf(capabilityId: string, uri: string): string | undefined {
  const prefix = artifactUri(capabilityId, "");
  const id = uri.startsWith(prefix) ? uri.slice(prefix.length) : "";
  return /^[0-9a-f]{32}$/.test(id) ? id : undefined;
}

/**
 * Rewrites the top-level `attachments` of MCP arguments into what Selu's rewrite produces
 * (`capability_artifact_id`, `filename`, `mime_type`, `size_bytes`, the element's other keys), storing
 * base64 content as an input artifact and taking a uri's artifact as one. Other arguments are untouched;
 * the tool's own validation runs afterwards, as for every call.
 * @throws ArgumentsError naming the element when it has neither or both, a bad uri or bad base64.
 */
export function resolveAttachments(runtime: Runtime, args: Record<string, unknown>): Record<string, unknown> {
  const list = args.attachments;
  if (!Array.isArray(list)) return args;
  const { store, capability } = runtime;
  const maxBase64 = Math.ceil(store.maxArtifactBytes / 3) * 4;
  const resolved = list.map((element: unknown, i) => {
    const field = `attachments[${i}]`;
    if (typeof element !== "object" || element === null || Array.isArray(element)) return element;
    const { uri, data_base64: data, filename, mime_type: mimeType, ...rest } = element as Record<string, unknown>;
    if ((uri === undefined || uri === null) === (data === undefined || data === null)) {
      throw new ArgumentsError(`${field}: give either uri (a file this server returned) or data_base64 (the file's content)`);
    }
    if (typeof uri === "string") {
      const id = artifactIdOf(capability.id, uri);
      const item = id ? store.get(id) : undefined;
      if (!item) throw new ArgumentsError(`${field}.uri: no file ${JSON.stringify(uri.slice(0, 120))} on this server (it expired or came from another server); pass its content as data_base64`);
      const input =
        item.kind === "input" ? item : store.put(item.chunks.length === 1 ? item.chunks[0]! : Buffer.concat(item.chunks), { kind: "input", filename: item.filename, mimeType: item.mimeType });
      return { ...rest, capability_artifact_id: input.id, filename: stringOr(filename, input.filename), mime_type: stringOr(mimeType, input.mimeType), size_bytes: input.size };
    }
    if (typeof data !== "string") throw new ArgumentsError(`${field}.data_base64: expected a base64 string`);
    if (data.length > maxBase64) throw new ToolError(`${field}: the file is larger than this capability's limit of ${formatBytes(store.maxArtifactBytes)} per file`);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 === 1) throw new ArgumentsError(`${field}.data_base64: not base64`);
    const name = stringOr(filename, "attachment.bin");
    const type = stringOr(mimeType, "application/octet-stream");
    const item = store.put(Buffer.from(data, "base64"), { kind: "input", filename: name, mimeType: type });
    return { ...rest, capability_artifact_id: item.id, filename: name, mime_type: type, size_bytes: item.size };
  });
  return { ...args, attachments: resolved };
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" && value !== "" ? value : fallback;
}

interface ArtifactObject {
  capability_artifact_id: string;
  filename?: string;
  mime_type?: string;
}

/**
 * A tool result as an MCP client reads it: each top-level `artifact` / `artifacts[]` object (where Selu
 * looks) becomes `{uri, filename, mime_type, size_bytes}`, and a resource_link to it is listed.
 */
export function linkArtifacts(runtime: Runtime, result: Record<string, unknown>): { result: Record<string, unknown>; links: ResourceLink[] } {
  const links: ResourceLink[] = [];
  const rewrite = (value: unknown): unknown => {
    if (!isArtifactObject(value)) return value;
    const item = runtime.store.get(value.capability_artifact_id);
    const uri = artifactUri(runtime.capability.id, value.capability_artifact_id);
    const filename = value.filename ?? item?.filename ?? "document.bin";
    const mimeType = value.mime_type ?? item?.mimeType ?? "application/octet-stream";
    links.push({ type: "resource_link", uri, name: filename, mimeType, ...(item ? { size: item.size } : {}) });
    return { uri, filename, mime_type: mimeType, ...(item ? { size_bytes: item.size } : {}) };
  };
  if (!("artifact" in result) && !("artifacts" in result)) return { result, links };
  const out = { ...result };
  if ("artifact" in out) out.artifact = rewrite(out.artifact);
  if (Array.isArray(out.artifacts)) out.artifacts = out.artifacts.map(rewrite);
  return { result: out, links };
}

function isArtifactObject(value: unknown): value is ArtifactObject {
  return typeof value === "object" && value !== null && typeof (value as ArtifactObject).capability_artifact_id === "string";
}

/**
 * resources/read of an artifact: its content, base64 (text for text types), within the per-file cap the
 * store already holds it to. Both output and input artifacts are readable by whoever has the uri, whose
 * 128-bit id is the only secret (as DownloadOutputArtifact's).
 * @throws ToolError for an unknown or expired uri.
 */
export function readArtifact(runtime: Runtime, uri: string): ReadResourceResult {
  const id = artifactIdOf(runtime.capability.id, uri);
  const item = id ? runtime.store.get(id) : undefined;
  if (!item) {
    const minutes = Math.round(runtime.capability.limits.artifactTtlMs / 60_000);
    throw new ToolError(`unknown or expired resource ${JSON.stringify(uri.slice(0, 120))}; files are kept for ${minutes} minutes`);
  }
  const bytes = item.chunks.length === 1 ? item.chunks[0]! : Buffer.concat(item.chunks, item.size);
  const text = /^text\/|^application\/json\b/.test(item.mimeType);
  return { contents: [text ? { uri, mimeType: item.mimeType, text: bytes.toString("utf8") } : { uri, mimeType: item.mimeType, blob: bytes.toString("base64") }] };
}
