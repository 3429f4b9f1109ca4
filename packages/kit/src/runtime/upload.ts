import type { ArtifactWriter } from "../artifacts/store.js";
import { wireError } from "../errors.js";
import { formatMs } from "../format.js";
import type { Runtime } from "./runtime.js";

/** One chunk of an upload, as UploadInputArtifact carries it: name and type on the first. */
export interface UploadChunk {
  filename: string;
  mimeType: string;
  data: Uint8Array;
}

/** What an upload answers: the stored file's id and size, or why it was refused. */
export type UploadOutcome = { ok: true; id: string; size: number } | { ok: false; error: string };

/**
 * One UploadInputArtifact, whatever the transport: it passes each chunk and the end, and gets exactly one
 * answer through `answer`: the stored file, or a refusal as soon as one is due (over the per-file cap, no
 * room, no chunks, no progress for `limits.transferIdleMs`), so the rest need not be read.
 */
export class Upload {
  readonly #runtime: Runtime;
  readonly #answer: (outcome: UploadOutcome) => void;
  #writer: ArtifactWriter | undefined;
  #open = true;
  readonly #idle: NodeJS.Timeout;

  constructor(runtime: Runtime, answer: (outcome: UploadOutcome) => void) {
    this.#runtime = runtime;
    this.#answer = answer;
    const idleMs = runtime.capability.limits.transferIdleMs;
    // A client that stops sending would hold its reservation for as long as it keeps the call open.
    this.#idle = setTimeout(() => this.#refuse(`no data arrived for ${formatMs(idleMs)}; send the file again`), idleMs);
  }

  /** Whether the upload still takes chunks (false once answered or cancelled). */
  get open(): boolean {
    return this.#open;
  }

  /** Stores one chunk; returns false once the upload was answered (the transport may stop reading). */
  write(chunk: UploadChunk): boolean {
    if (!this.#open) return false;
    this.#idle.refresh();
    try {
      this.#writer ??= this.#runtime.store.begin({
        kind: "input",
        filename: chunk.filename || "upload.bin",
        mimeType: chunk.mimeType || "application/octet-stream",
      });
      this.#writer.write(chunk.data);
    } catch (err) {
      this.#refuse(wireError(err, { subject: "the upload", log: this.#runtime.log }));
    }
    return this.#open;
  }

  /** The client sent its last chunk: stores the file and answers. */
  end(): void {
    if (!this.#open) return;
    if (!this.#writer) return this.#finish({ ok: false, error: "upload refused: no chunks were received" });
    const item = this.#writer.finish();
    this.#runtime.log.debug("upload stored", { bytes: item.size, mime: item.mimeType });
    this.#finish({ ok: true, id: item.id, size: item.size });
  }

  /** The client went away: drops what was received; nothing is answered. */
  cancel(): void {
    if (!this.#open) return;
    this.#open = false;
    clearTimeout(this.#idle);
    this.#writer?.abort();
  }

  #refuse(message: string): void {
    if (!this.#open) return;
    this.#writer?.abort();
    this.#runtime.log.info("upload refused", { error: message });
    this.#finish({ ok: false, error: `upload refused: ${message}` });
  }

  #finish(outcome: UploadOutcome): void {
    this.#open = false;
    clearTimeout(this.#idle);
    this.#answer(outcome);
  }
}
