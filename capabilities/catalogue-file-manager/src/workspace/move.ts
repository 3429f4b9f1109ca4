import { rename } from "node:fs/promises";
import { errnoOf, PathError } from "./errors.js";
import { displayPath } from "./relative-path.js";
import { at, type SecureFs } from "./secure-fs.js";

/**
 * Moves or renames `from` to `to` with one rename(2) between the two parents, each opened without
 * following links. A link is moved as a link. Without `overwrite` an existing target is refused.
 */
export async function move(fs: SecureFs, from: readonly string[], to: readonly string[], overwrite: boolean): Promise<void> {
  const source = await fs.openParent(from, "source");
  try {
    const target = await fs.openParent(to, "destination", true);
    try {
      if (!(await fs.lstatAt(source.dir, source.name))) throw new PathError(`source: ${displayPath(from)} does not exist`);
      const existing = await fs.lstatAt(target.dir, target.name);
      if (existing && !overwrite) throw new PathError(`destination: ${displayPath(to)} already exists; pass overwrite: true to replace it`);
      await rename(at(source.dir.handle, source.name), at(target.dir.handle, target.name)).catch((err: unknown) => {
        throw renameError(err, from, to);
      });
    } finally {
      await target.dir.close();
    }
  } finally {
    await source.dir.close();
  }
}

function renameError(err: unknown, from: readonly string[], to: readonly string[]): Error {
  const [a, b] = [displayPath(from), displayPath(to)];
  switch (errnoOf(err)) {
    case "EINVAL":
      return new PathError(`destination: ${b} is inside ${a}; a directory can't be moved into itself`);
    case "EISDIR":
      return new PathError(`destination: ${b} is a directory; a file can't replace it`);
    case "ENOTDIR":
      return new PathError(`destination: ${b} is a file; a directory can't replace it`);
    case "ENOTEMPTY":
    case "EEXIST":
      return new PathError(`destination: ${b} is a directory that is not empty`);
    default:
      return err instanceof Error ? err : new Error(String(err));
  }
}
