import { constants as C, type Stats } from "node:fs";
import { lstat, mkdir, open, type FileHandle } from "node:fs/promises";
import { errnoOf, PathError } from "./errors.js";
import { displayPath } from "./relative-path.js";

// Node has no openat(2). A path below /proc/self/fd/<dirfd>/ is resolved from that open directory, the
// way openat resolves from a dirfd: the magic link leads into the directory the fd holds, whatever
// has been renamed or swapped since, and with O_NOFOLLOW the final name is never followed. Walking one
// component at a time this way means no symbolic link is followed anywhere, at check or at use: a link
// swapped in between (the race the MCP filesystem server lost) fails the open instead of escaping.
const DIR_FLAGS = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;
// O_NONBLOCK: opening a FIFO must not hang the call until a writer appears.
const FILE_FLAGS = C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK;

/** The path of `name` inside the directory open as `dir`, for the fs calls that take paths. */
export function at(dir: FileHandle, name: string): string {
  return `/proc/self/fd/${dir.fd}/${name}`;
}

/** An open directory below the root; close it when done (the root itself is never closed). */
export interface OpenDir {
  readonly handle: FileHandle;
  close(): Promise<void>;
}

/** A regular file opened for reading, with the stat of what was opened. */
export interface OpenFile {
  readonly handle: FileHandle;
  readonly stat: Stats;
}

/**
 * The workspace root and the only ways this capability touches what is below it: every directory is
 * opened component by component with O_NOFOLLOW from the root's descriptor.
 */
export class SecureFs {
  readonly rootPath: string;
  #root: Promise<FileHandle> | undefined;

  constructor(rootPath: string) {
    this.rootPath = rootPath;
  }

  /** The root's descriptor, opened once (the root may itself be a link: it is configuration, not input). */
  root(): Promise<FileHandle> {
    this.#root ??= open(this.rootPath, C.O_RDONLY | C.O_DIRECTORY).catch((err: unknown) => {
      this.#root = undefined;
      throw new PathError(`the workspace ${this.rootPath} can't be opened (${errnoOf(err) ?? "error"}); the capability needs Selu's ` + "workspace volume (class environment, filesystem workspace)");
    });
    return this.#root;
  }

  /** Opens the directory at `parts`; with `create`, missing directories are made (never through a link). */
  async openDir(parts: readonly string[], field: string, create = false): Promise<OpenDir> {
    const root = await this.root();
    let current: FileHandle = root;
    try {
      for (let i = 0; i < parts.length; i++) {
        const next = await this.#step(current, parts, i, field, create);
        if (current !== root) await current.close();
        current = next;
      }
    } catch (err) {
      if (current !== root) await current.close();
      throw err;
    }
    const handle = current;
    return { handle, close: async () => (handle === root ? undefined : handle.close()) };
  }

  /** Opens the parent of `parts` (which must name something below the root) and returns the last name. */
  async openParent(parts: readonly string[], field: string, create = false): Promise<{ dir: OpenDir; name: string }> {
    if (parts.length === 0) throw new PathError(`${field}: expected a file or directory below the workspace root, got the root itself`);
    const dir = await this.openDir(parts.slice(0, -1), field, create);
    return { dir, name: parts.at(-1)! };
  }

  /** lstat of `name` in `dir`; undefined when there is nothing there. */
  async lstatAt(dir: OpenDir, name: string): Promise<Stats | undefined> {
    try {
      return await lstat(at(dir.handle, name));
    } catch (err) {
      if (errnoOf(err) === "ENOENT") return undefined;
      throw err;
    }
  }

  /**
   * Opens a regular file for reading. Refuses links, directories, devices, FIFOs, sockets, and files with
   * more than one hard link (a hard link made outside the capability can reach a file outside the root).
   */
  async openFile(parts: readonly string[], field: string): Promise<OpenFile> {
    const { dir, name } = await this.openParent(parts, field);
    try {
      const before = await this.lstatAt(dir, name);
      if (!before) throw new PathError(`${field}: ${displayPath(parts)} does not exist`);
      refuseUnlessFile(before, parts, field);
      const handle = await open(at(dir.handle, name), FILE_FLAGS).catch((err: unknown) => {
        throw openError(err, parts, field);
      });
      const stat = await handle.stat();
      try {
        // What was opened is what was checked (a swap in between is refused, not read).
        if (stat.ino !== before.ino || stat.dev !== before.dev) throw new PathError(`${field}: ${displayPath(parts)} changed while it was opened; try again`);
        refuseUnlessFile(stat, parts, field);
      } catch (err) {
        await handle.close();
        throw err;
      }
      return { handle, stat };
    } finally {
      await dir.close();
    }
  }

  async #step(current: FileHandle, parts: readonly string[], i: number, field: string, create: boolean): Promise<FileHandle> {
    const name = parts[i]!;
    try {
      return await open(at(current, name), DIR_FLAGS);
    } catch (err) {
      if (errnoOf(err) !== "ENOENT" || !create) throw await stepError(err, current, parts, i, field);
    }
    try {
      await mkdir(at(current, name), 0o755);
    } catch (err) {
      if (errnoOf(err) !== "EEXIST") throw await stepError(err, current, parts, i, field);
    }
    try {
      return await open(at(current, name), DIR_FLAGS);
    } catch (err) {
      throw await stepError(err, current, parts, i, field);
    }
  }
}

/** The kind of a non-regular, non-directory entry, in words. */
export function kindOf(stat: Stats): string {
  if (stat.isSymbolicLink()) return "a symbolic link";
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device file";
  return "a regular file";
}

function refuseUnlessFile(stat: Stats, parts: readonly string[], field: string): void {
  const path = displayPath(parts);
  if (stat.isSymbolicLink()) throw new PathError(`${field}: ${path} is a symbolic link; links are never followed`);
  if (stat.isDirectory()) throw new PathError(`${field}: ${path} is a directory, not a file`);
  if (!stat.isFile()) throw new PathError(`${field}: ${path} is ${kindOf(stat)}; only regular files and directories are handled`);
  if (stat.nlink > 1) {
    throw new PathError(`${field}: ${path} has ${stat.nlink} hard links; hard-linked files are refused because a link can reach a file outside the workspace`);
  }
}

function openError(err: unknown, parts: readonly string[], field: string): Error {
  const path = displayPath(parts);
  switch (errnoOf(err)) {
    case "ENOENT":
      return new PathError(`${field}: ${path} does not exist`);
    case "ELOOP":
      return new PathError(`${field}: ${path} is a symbolic link; links are never followed`);
    case "ENXIO":
      return new PathError(`${field}: ${path} is a socket or device; only regular files and directories are handled`);
    case "EACCES":
    case "EPERM":
      return new PathError(`${field}: ${path} can't be read (permission denied)`);
    default:
      return err instanceof Error ? err : new Error(String(err));
  }
}

/** Explains why component `i` could not be opened as a directory, by looking at what is there now. */
async function stepError(err: unknown, current: FileHandle, parts: readonly string[], i: number, field: string): Promise<Error> {
  const upTo = displayPath(parts.slice(0, i + 1));
  const code = errnoOf(err);
  if (code === "ENOENT") return new PathError(`${field}: ${upTo} does not exist`);
  if (code === "EACCES" || code === "EPERM") return new PathError(`${field}: ${upTo} can't be opened (permission denied)`);
  if (code === "ELOOP" || code === "ENOTDIR" || code === "EEXIST") {
    const stat = await lstat(at(current, parts[i]!)).catch(() => undefined);
    if (stat?.isSymbolicLink()) return new PathError(`${field}: ${upTo} is a symbolic link; links are never followed`);
    if (stat) return new PathError(`${field}: ${upTo} is ${kindOf(stat)}, not a directory`);
    return new PathError(`${field}: ${upTo} changed while it was opened; try again`);
  }
  return err instanceof Error ? err : new Error(String(err));
}
