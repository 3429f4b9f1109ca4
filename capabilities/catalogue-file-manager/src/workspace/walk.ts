import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { TEMP_NAME } from "./atomic-write.js";
import { displayPath } from "./relative-path.js";
import { type OpenDir, type SecureFs } from "./secure-fs.js";

/** One entry met by {@link walk}: its path below the root and what readdir said it is. */
export interface WalkEntry {
  parts: string[];
  path: string;
  kind: "file" | "directory" | "symlink" | "other";
  depth: number;
}

export interface WalkOptions {
  /** Deepest level to list (1 = the start directory's own entries). */
  maxDepth: number;
  /** Skips an entry (and, for a directory, everything below it). */
  exclude?: (entry: WalkEntry) => boolean;
  signal?: AbortSignal;
}

/**
 * Lists everything below the directory at `start`, breadth first, in name order within each directory.
 * Each directory is opened afresh from the root through {@link SecureFs.openDir} (one descriptor open at a
 * time, so a deep tree can't exhaust Selu's 256 open files) and links are reported, never entered.
 * `visit` may return "stop" to end the walk early; it receives the open directory of the entry. Files
 * still being written by writeAtomic are left out.
 */
export async function walk(
  fs: SecureFs,
  start: readonly string[],
  field: string,
  options: WalkOptions,
  visit: (entry: WalkEntry, dir: OpenDir) => Promise<void | "stop"> | void | "stop",
): Promise<void> {
  const queue: { parts: string[]; depth: number }[] = [{ parts: [...start], depth: 0 }];
  while (queue.length > 0) {
    const { parts, depth } = queue.shift()!;
    const dir = await fs.openDir(parts, field);
    try {
      const names = await readdir(`/proc/self/fd/${dir.handle.fd}`, { withFileTypes: true });
      names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const dirent of names) {
        options.signal?.throwIfAborted();
        if (TEMP_NAME.test(dirent.name)) continue;
        const childParts = [...parts, dirent.name];
        const entry: WalkEntry = { parts: childParts, path: displayPath(childParts), kind: kindOfDirent(dirent), depth: depth + 1 };
        if (options.exclude?.(entry)) continue;
        if ((await visit(entry, dir)) === "stop") return;
        if (entry.kind === "directory" && entry.depth < options.maxDepth) queue.push({ parts: childParts, depth: entry.depth });
      }
    } finally {
      await dir.close();
    }
  }
}

export function kindOfDirent(dirent: Dirent): WalkEntry["kind"] {
  if (dirent.isFile()) return "file";
  if (dirent.isDirectory()) return "directory";
  if (dirent.isSymbolicLink()) return "symlink";
  return "other";
}
