import { Readable } from "node:stream";
import { ToolError } from "../errors.js";
import type { ArtifactStore, StoredArtifact } from "./store.js";

/** What a tool returns under `artifact` / `artifacts[]`: the object Selu looks for in a result. */
export interface ArtifactRef {
  capability_artifact_id: string;
  filename: string;
  mime_type: string;
}

/** An `attachments[]` element after the orchestrator uploaded it (see `attachments()`). */
export interface AttachmentArg {
  capability_artifact_id: string;
  filename?: string | undefined;
  mime_type?: string | undefined;
  size_bytes?: number | undefined;
}

/** An input file, resolved from an attachment. */
export interface InputFile {
  readonly filename: string;
  readonly mimeType: string;
  readonly size: number;
  /** The content in one buffer (copied once, on first call). */
  bytes(): Buffer;
  /** The content as a stream, without copying. */
  stream(): Readable;
}

export type ArtifactContent = Uint8Array | AsyncIterable<Uint8Array>;

/** Artifacts as a tool sees them. */
export interface ArtifactAccess {
  /**
   * Stores an output artifact and returns the object to place under `artifact` or `artifacts[]` in the
   * result. Streams are read chunk by chunk and refused as soon as they pass the per-file cap.
   */
  put(content: ArtifactContent, meta: { filename: string; mimeType: string }, signal?: AbortSignal): Promise<ArtifactRef>;
  /** Resolves an uploaded attachment; `field` names it in errors (e.g. `attachments[1]`). */
  read(attachment: AttachmentArg, field?: string): InputFile;
}

/**
 * The store bound to one tool call (`ctx.artifacts`). A class, not an object of closures: one is made for
 * every call, and its methods are shared.
 */
export class CallArtifacts implements ArtifactAccess {
  readonly #store: ArtifactStore;
  readonly #signal: AbortSignal;

  constructor(store: ArtifactStore, callSignal: AbortSignal) {
    this.#store = store;
    this.#signal = callSignal;
  }

  async put(content: ArtifactContent, meta: { filename: string; mimeType: string }, signal: AbortSignal = this.#signal): Promise<ArtifactRef> {
    if (!meta.filename) throw new TypeError("artifacts.put: filename is required");
    if (!meta.mimeType) throw new TypeError("artifacts.put: mimeType is required");
    const writer = this.#store.begin({ kind: "output", filename: meta.filename, mimeType: meta.mimeType });
    try {
      if (content instanceof Uint8Array) writer.write(content);
      else {
        for await (const chunk of content) {
          signal.throwIfAborted();
          writer.write(chunk);
        }
      }
      // Selu treats a download with no data as an error, so refuse it here where it is clear.
      if (writer.size === 0) throw new ToolError(`the file ${JSON.stringify(meta.filename)} is empty`);
    } catch (err) {
      writer.abort();
      throw err;
    }
    const item = writer.finish();
    return { capability_artifact_id: item.id, filename: item.filename, mime_type: item.mimeType };
  }

  read(attachment: AttachmentArg, field = "attachment"): InputFile {
    const item = this.#store.get(attachment.capability_artifact_id);
    if (!item && this.#store.wasEvicted(attachment.capability_artifact_id)) {
      throw new ToolError(`${field}: the file was dropped from this capability's memory, which files of calls running at once had filled; send fewer or smaller files at once, or try again shortly`);
    }
    if (!item || item.kind !== "input") {
      throw new ToolError(
        `${field}: no uploaded file with id ${JSON.stringify(attachment.capability_artifact_id)}` + " (it expired or was never uploaded to this capability); attach the artifact again",
      );
    }
    this.#store.markUsed(item.id);
    return toInputFile(item, attachment);
  }
}

function toInputFile(item: StoredArtifact, attachment: AttachmentArg): InputFile {
  let joined: Buffer | undefined;
  return {
    filename: attachment.filename || item.filename || "attachment.bin",
    mimeType: attachment.mime_type || item.mimeType || "application/octet-stream",
    size: item.size,
    bytes: () => (joined ??= item.chunks.length === 1 ? item.chunks[0]! : Buffer.concat(item.chunks, item.size)),
    stream: () => Readable.from(item.chunks, { objectMode: false }),
  };
}
