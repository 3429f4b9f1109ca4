import { ToolError } from "@selu-catalogue/kit";
import { writeAtomic } from "../workspace/atomic-write.js";
import { PathError } from "../workspace/errors.js";
import type { WriteBudget } from "../workspace/quota.js";
import { displayPath, parseRelativePath } from "../workspace/relative-path.js";
import type { SecureFs } from "../workspace/secure-fs.js";
import { entryContent, readCentralDirectory, type ArchiveSource } from "./zip-read.js";

/** Bounds of one extraction, besides the call's write quotas. */
export interface UnzipLimits {
  maxEntries: number;
  /** Largest output per compressed byte of an entry. */
  maxRatio: number;
}

export interface Extracted {
  files: number;
  directories: number;
  bytes: number;
  skipped: { entry: string; reason: string }[];
}

/**
 * Extracts an archive into the directory at `destination`. Each entry name is checked as a path the
 * model had sent (zip-slip: `..`, absolute names and backslash tricks are refused, which stops the whole
 * extraction before anything else is written), every directory on the way is opened without following
 * links (so an existing link can't be written through), and links and special files in the archive are
 * skipped, never created. Sizes, ratio and quotas are checked on the inflated bytes as they arrive.
 */
export async function extract(
  fs: SecureFs,
  source: ArchiveSource,
  destination: readonly string[],
  budget: WriteBudget,
  limits: UnzipLimits,
  overwrite: boolean,
  signal?: AbortSignal,
): Promise<Extracted> {
  const entries = await readCentralDirectory(source, limits.maxEntries);
  // Every name is checked before the first byte is written, so a hostile archive leaves nothing behind.
  const planned = entries.map((entry) => {
    const label = `entry ${JSON.stringify(entry.name.length > 120 ? `${entry.name.slice(0, 117)}...` : entry.name)}`;
    // Windows archivers write "\" as a separator; reading it as one means "..\\x" is refused as "..".
    const parts = parseRelativePath(entry.name.replaceAll("\\", "/"), label);
    if (parts.length === 0 && entry.kind !== "directory") throw new PathError(`${label}: has an empty name`);
    return { entry, label, parts: [...destination, ...parts] };
  });
  const result: Extracted = { files: 0, directories: 0, bytes: 0, skipped: [] };
  await (await fs.openDir(destination, "destination", true)).close();
  for (const { entry, label, parts } of planned) {
    signal?.throwIfAborted();
    if (entry.kind === "symlink" || entry.kind === "other") {
      result.skipped.push({ entry: entry.name, reason: entry.kind === "symlink" ? "a symbolic link; links are never extracted" : "not a regular file or directory" });
      continue;
    }
    if (entry.kind === "directory") {
      if (parts.length > destination.length) await (await fs.openDir(parts, label, true)).close();
      result.directories++;
      continue;
    }
    const content = entryContent(
      source,
      entry,
      {
        maxBytes: budget.quotas.maxFileBytes,
        maxRatio: limits.maxRatio,
        ratioGraceBytes: 1024 * 1024,
        label,
      },
      signal,
    );
    try {
      result.bytes += await writeAtomic(fs, parts, content, budget, label, { overwrite, createParents: true }, signal);
    } catch (err) {
      if (err instanceof ToolError) throw new ToolError(`${err.message} (extracted so far: ${result.files} files into ${displayPath(destination)})`, { cause: err });
      throw err;
    }
    result.files++;
  }
  return result;
}
