import { formatBytes } from "@selu-catalogue/kit";
import { QuotaError } from "./errors.js";

/** Write quotas, enforced while writing (a file is refused at the byte that passes a bound). */
export interface WriteQuotas {
  /** Largest file a call may write, in bytes. */
  maxFileBytes: number;
  /** Files (and directories) a single call may create. */
  maxFilesPerCall: number;
  /** Bytes a single call may write in all files together. */
  maxBytesPerCall: number;
}

/**
 * What one tool call has written so far, against its {@link WriteQuotas}. Every write goes through
 * `chargeBytes` before it reaches the disk, so a quota stops a write instead of being checked after it.
 */
export class WriteBudget {
  readonly quotas: Readonly<WriteQuotas>;
  #files = 0;
  #bytes = 0;

  constructor(quotas: Readonly<WriteQuotas>) {
    this.quotas = quotas;
  }

  get filesWritten(): number {
    return this.#files;
  }

  get bytesWritten(): number {
    return this.#bytes;
  }

  /** Counts one more file or directory created by this call. */
  chargeFile(path: string): void {
    if (this.#files + 1 > this.quotas.maxFilesPerCall) {
      throw new QuotaError(`${path}: one call may create at most ${this.quotas.maxFilesPerCall} files and directories; split the work into smaller steps`);
    }
    this.#files++;
  }

  /** Counts `n` more bytes of a file that already holds `fileBytes`, before they are written. */
  chargeBytes(path: string, fileBytes: number, n: number): void {
    if (fileBytes + n > this.quotas.maxFileBytes) {
      throw new QuotaError(`${path}: the file would be larger than the ${formatBytes(this.quotas.maxFileBytes)} limit per file`);
    }
    if (this.#bytes + n > this.quotas.maxBytesPerCall) {
      throw new QuotaError(`${path}: one call may write at most ${formatBytes(this.quotas.maxBytesPerCall)} in all; split the work into smaller steps`);
    }
    this.#bytes += n;
  }
}
