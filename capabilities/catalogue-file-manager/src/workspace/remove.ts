import { constants as C } from "node:fs";
import { open, readdir, rmdir, unlink, type FileHandle } from "node:fs/promises";
import { errnoOf, PathError } from "./errors.js";
import { displayPath } from "./relative-path.js";
import { at, type SecureFs } from "./secure-fs.js";

const DIR_FLAGS = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;
/** How deep a recursive delete goes: one descriptor is held per level, and Selu allows 256 in all. */
export const MAX_DELETE_DEPTH = 64;

/** What a delete removed. */
export interface Removed {
  files: number;
  directories: number;
}

/**
 * Deletes the file, link or directory at `parts`. A link is removed itself, never what it points to; a
 * non-empty directory only with `recursive`, walked with O_NOFOLLOW from its open descriptor.
 */
export async function remove(fs: SecureFs, parts: readonly string[], field: string, recursive: boolean, signal?: AbortSignal): Promise<Removed> {
  const path = displayPath(parts);
  const { dir, name } = await fs.openParent(parts, field);
  try {
    const stat = await fs.lstatAt(dir, name);
    if (!stat) throw new PathError(`${field}: ${path} does not exist`);
    if (!stat.isDirectory()) {
      await unlink(at(dir.handle, name));
      return { files: 1, directories: 0 };
    }
    const removed: Removed = { files: 0, directories: 0 };
    if (recursive) await emptyDirectory(dir.handle, name, path, 1, removed, signal);
    try {
      await rmdir(at(dir.handle, name));
    } catch (err) {
      if (errnoOf(err) === "ENOTEMPTY" || errnoOf(err) === "EEXIST") {
        throw new PathError(`${field}: ${path} is a directory that is not empty; pass recursive: true to delete it and everything in it`);
      }
      throw err;
    }
    removed.directories++;
    return removed;
  } finally {
    await dir.close();
  }
}

async function emptyDirectory(parent: FileHandle, name: string, path: string, depth: number, removed: Removed, signal?: AbortSignal): Promise<void> {
  if (depth > MAX_DELETE_DEPTH) throw new PathError(`${path} is nested more than ${MAX_DELETE_DEPTH} levels deep; delete its deepest directories first`);
  const dir = await open(at(parent, name), DIR_FLAGS);
  try {
    for (const entry of await readdir(`/proc/self/fd/${dir.fd}`, { withFileTypes: true })) {
      signal?.throwIfAborted();
      if (entry.isDirectory()) {
        await emptyDirectory(dir, entry.name, `${path}/${entry.name}`, depth + 1, removed, signal);
        await rmdir(at(dir, entry.name));
        removed.directories++;
      } else {
        await unlink(at(dir, entry.name));
        removed.files++;
      }
    }
  } finally {
    await dir.close();
  }
}
