import type { WriteQuotas } from "./workspace/quota.js";

/** The file manager's settings, parsed once at the entrypoint (tests pass their own). */
export interface FileManagerOptions {
  /** The workspace root: Selu mounts the session's volume at /workspace (class environment, filesystem workspace). */
  root: string;
  quotas: WriteQuotas;
  /** Largest file read_file, grep and edit_file read, in bytes. */
  maxReadBytes: number;
  /** Entries an archive may have, and the largest inflation ratio of an entry. */
  unzip: { maxEntries: number; maxRatio: number };
  /** Entries a walk (directory_tree, search_files, grep, zip) visits before it stops. */
  maxWalkEntries: number;
}

export const DEFAULT_OPTIONS: Readonly<FileManagerOptions> = Object.freeze({
  root: "/workspace",
  quotas: Object.freeze({ maxFileBytes: 64 * 1024 * 1024, maxFilesPerCall: 5_000, maxBytesPerCall: 256 * 1024 * 1024 }),
  maxReadBytes: 256 * 1024 * 1024,
  unzip: Object.freeze({ maxEntries: 5_000, maxRatio: 200 }),
  maxWalkEntries: 100_000,
});

/** The options from the environment: only `WORKSPACE_ROOT` (default /workspace) is read. */
export function optionsFromEnv(env: NodeJS.ProcessEnv): FileManagerOptions {
  return { ...DEFAULT_OPTIONS, root: env.WORKSPACE_ROOT || DEFAULT_OPTIONS.root };
}
