import { randomBytes } from "node:crypto";
import { constants as C } from "node:fs";
import { link, open, rename, unlink } from "node:fs/promises";
import { errnoOf, PathError } from "./errors.js";
import type { WriteBudget } from "./quota.js";
import { displayPath } from "./relative-path.js";
import { at, kindOf, type SecureFs } from "./secure-fs.js";

// The temporary file is created exclusively and never through a link, in the target's own directory,
// so the final rename is atomic: a reader sees the old file or the new one, never half of either.
const TEMP_FLAGS = C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW;

/** Names of temporary files being written; walks leave them out (a zip must not pack its own output). */
export const TEMP_NAME = /^\.[0-9a-f]{24}\.partial$/;

export interface WriteOptions {
  /** Replace an existing regular file (default: refuse when something exists). */
  overwrite?: boolean;
  /** Create missing parent directories. */
  createParents?: boolean;
}

/**
 * Writes `content` to the file at `parts` through a temporary file and a rename in the same directory,
 * charging every chunk to `budget` before it is written. On any failure (a quota, a cancelled call) the
 * temporary file is removed and the target is untouched. Without `overwrite`, the new file is linked
 * into place with link(2), which fails if anything appeared there meanwhile (no check-then-write race).
 *
 * @returns the number of bytes written.
 */
export async function writeAtomic(
  fs: SecureFs,
  parts: readonly string[],
  content: Uint8Array | AsyncIterable<Uint8Array>,
  budget: WriteBudget,
  field: string,
  options: WriteOptions = {},
  signal?: AbortSignal,
): Promise<number> {
  const path = displayPath(parts);
  const { dir, name } = await fs.openParent(parts, field, options.createParents);
  try {
    const existing = await fs.lstatAt(dir, name);
    if (existing) {
      if (!existing.isFile()) throw new PathError(`${field}: ${path} is ${kindOf(existing)}; only a regular file can be replaced`);
      if (!options.overwrite) throw new PathError(`${field}: ${path} already exists; pass overwrite: true to replace it`);
    } else budget.chargeFile(path);
    const temp = `.${randomBytes(12).toString("hex")}.partial`;
    const handle = await open(at(dir.handle, temp), TEMP_FLAGS, 0o644);
    let size = 0;
    try {
      const write = async (chunk: Uint8Array) => {
        signal?.throwIfAborted();
        budget.chargeBytes(path, size, chunk.byteLength);
        await handle.write(chunk);
        size += chunk.byteLength;
      };
      if (content instanceof Uint8Array) await write(content);
      else for await (const chunk of content) await write(chunk);
      await handle.close();
      if (options.overwrite) await rename(at(dir.handle, temp), at(dir.handle, name));
      else {
        await link(at(dir.handle, temp), at(dir.handle, name)).catch((err: unknown) => {
          throw errnoOf(err) === "EEXIST" ? new PathError(`${field}: ${path} already exists; pass overwrite: true to replace it`) : err;
        });
        await unlink(at(dir.handle, temp));
      }
      return size;
    } catch (err) {
      await handle.close().catch(() => undefined);
      await unlink(at(dir.handle, temp)).catch(() => undefined);
      throw err;
    }
  } finally {
    await dir.close();
  }
}
