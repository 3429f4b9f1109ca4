import { writeAtomic } from "./atomic-write.js";
import { PathError } from "./errors.js";
import type { WriteBudget } from "./quota.js";
import { displayPath } from "./relative-path.js";
import { kindOf, type SecureFs } from "./secure-fs.js";
import { walk } from "./walk.js";

/** What a copy did: files and directories made, entries left out (links, devices) and why. */
export interface Copied {
  files: number;
  directories: number;
  bytes: number;
  skipped: { path: string; reason: string }[];
}

const MAX_COPY_DEPTH = 64;

/** Copies one regular file (refused when it is a link, a device or hard-linked) to `to`, atomically. */
export async function copyFile(fs: SecureFs, from: readonly string[], to: readonly string[], budget: WriteBudget, overwrite: boolean, signal?: AbortSignal): Promise<number> {
  const { handle } = await fs.openFile(from, "source");
  try {
    return await writeAtomic(fs, to, handle.createReadStream({ autoClose: false, start: 0 }), budget, "destination", { overwrite, createParents: true }, signal);
  } finally {
    await handle.close();
  }
}

/**
 * Copies a file or a directory tree. Links, devices, FIFOs and sockets inside a tree are skipped and
 * listed, never followed; every file and byte is charged to `budget` as it is written.
 */
export async function copy(fs: SecureFs, from: readonly string[], to: readonly string[], budget: WriteBudget, overwrite: boolean, signal?: AbortSignal): Promise<Copied> {
  const { dir, name } = await fs.openParent(from, "source");
  const stat = await fs.lstatAt(dir, name).finally(() => dir.close());
  if (!stat) throw new PathError(`source: ${displayPath(from)} does not exist`);
  const result: Copied = { files: 0, directories: 0, bytes: 0, skipped: [] };
  if (!stat.isDirectory()) {
    result.bytes = await copyFile(fs, from, to, budget, overwrite, signal);
    result.files = 1;
    return result;
  }
  if (to.length > from.length && from.every((p, i) => to[i] === p)) throw new PathError(`destination: ${displayPath(to)} is inside ${displayPath(from)}; a directory can't be copied into itself`);
  await makeDirectory(fs, to, budget, overwrite);
  result.directories++;
  await walk(fs, from, "source", { maxDepth: MAX_COPY_DEPTH, ...(signal ? { signal } : {}) }, async (entry) => {
    const target = [...to, ...entry.parts.slice(from.length)];
    if (entry.kind === "directory") {
      await makeDirectory(fs, target, budget, overwrite);
      result.directories++;
    } else if (entry.kind === "file") {
      try {
        result.bytes += await copyFile(fs, entry.parts, target, budget, overwrite, signal);
        result.files++;
      } catch (err) {
        if (!(err instanceof PathError) || !/hard links|symbolic link|device|FIFO|socket/.test(err.message)) throw err;
        result.skipped.push({ path: entry.path, reason: err.message.replace(/^source: /, "") });
      }
    } else result.skipped.push({ path: entry.path, reason: `${entry.kind === "symlink" ? "a symbolic link" : "not a regular file"}; not copied` });
  });
  return result;
}

async function makeDirectory(fs: SecureFs, parts: readonly string[], budget: WriteBudget, overwrite: boolean): Promise<void> {
  const { dir, name } = await fs.openParent(parts, "destination", true);
  try {
    const existing = await fs.lstatAt(dir, name);
    if (existing && !existing.isDirectory()) throw new PathError(`destination: ${displayPath(parts)} is ${kindOf(existing)}, not a directory`);
    if (existing && !overwrite) throw new PathError(`destination: ${displayPath(parts)} already exists; pass overwrite: true to merge into it`);
  } finally {
    await dir.close();
  }
  budget.chargeFile(displayPath(parts));
  await (await fs.openDir(parts, "destination", true)).close();
}
