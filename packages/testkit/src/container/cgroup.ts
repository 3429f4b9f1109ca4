import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";

const MEMORY_ROOT = "/sys/fs/cgroup/memory";
const PIDS_ROOT = "/sys/fs/cgroup/pids";

/** Selu's defaults for `resources` (contract section 3). */
export const SELU_DEFAULT_MEMORY_MB = 128;
export const SELU_DEFAULT_PIDS_LIMIT = 64;

/**
 * A cgroup v1 memory group, and a pids group when a pids limit is asked for, with Selu's limits for a
 * capability process: the kernel enforces `memory.limit_in_bytes` = max_memory_mb MiB (the /tmp tmpfs
 * and page cache are charged to it, as in Selu's container; no swap limit) and `pids.max` = pids_limit
 * (threads count, as in Docker). The testkit's one way to make cgroups: `memoryLimit` wraps it.
 */
export interface ContainerCgroup {
  readonly name: string;
  readonly memoryMb: number;
  readonly pidsLimit: number | undefined;
  /** The cgroup.procs files a process writes its pid to, to join the groups (the sandbox does it). */
  readonly procsFiles: readonly string[];
  /** Highest memory charged so far, in MiB (`memory.max_usage_in_bytes`: anonymous memory, /tmp and cache). */
  peakMiB(): number;
  /** Starts measuring the peak afresh (cgroup v1 resets `memory.max_usage_in_bytes` on a write). */
  resetPeak(): void;
  /** How many processes the kernel killed for going over the memory limit. */
  oomKills(): number;
  /** Most tasks (processes and threads) at once, where the kernel reports it (`pids.peak`). */
  peakPids(): number | undefined;
  /** Removes the groups once their processes have exited (retrying for an exit in progress). */
  remove(): void;
}

export interface ContainerCgroupOptions {
  /** Default: Selu's 128. */
  memoryMb?: number;
  /** Adds a pids group with this `pids.max`; none without it. */
  pidsLimit?: number;
  /** Names the groups (`selu-<label>-<hex>`, unique, so tests running at once never share one); default "cap". */
  label?: string;
}

/**
 * Creates the cgroups under a unique name, or returns undefined where that is not possible (not root, no
 * cgroup v1 memory controller, or no pids controller when a pids limit is asked for): callers then fall
 * back to the peak-RSS bound.
 */
export function createContainerCgroup(options: ContainerCgroupOptions = {}): ContainerCgroup | undefined {
  const { pidsLimit } = options;
  if (process.getuid?.() !== 0 || !existsSync(join(MEMORY_ROOT, "cgroup.procs")) || (pidsLimit !== undefined && !existsSync(join(PIDS_ROOT, "cgroup.procs")))) return undefined;
  const name = `selu-${(options.label ?? "cap").replace(/[^a-z0-9-]/gi, "-")}-${randomBytes(6).toString("hex")}`;
  const memory = join(MEMORY_ROOT, name);
  const pids = pidsLimit === undefined ? undefined : join(PIDS_ROOT, name);
  const dirs = pids ? [memory, pids] : [memory];
  const memoryMb = options.memoryMb ?? SELU_DEFAULT_MEMORY_MB;
  try {
    for (const dir of dirs) mkdirSync(dir);
    writeFileSync(join(memory, "memory.limit_in_bytes"), String(memoryMb * 1024 * 1024));
    if (pids) writeFileSync(join(pids, "pids.max"), String(pidsLimit));
  } catch {
    for (const dir of dirs) tryRmdir(dir);
    return undefined;
  }
  return {
    name,
    memoryMb,
    pidsLimit,
    procsFiles: dirs.map((dir) => join(dir, "cgroup.procs")),
    peakMiB: () => Math.round((Number(read(join(memory, "memory.max_usage_in_bytes"))) / 1024 / 1024) * 10) / 10,
    resetPeak: () => writeFileSync(join(memory, "memory.max_usage_in_bytes"), "0"),
    oomKills: () => Number(/^oom_kill (\d+)$/m.exec(read(join(memory, "memory.oom_control")))?.[1] ?? 0),
    peakPids: () => (pids && existsSync(join(pids, "pids.peak")) ? Number(read(join(pids, "pids.peak"))) : undefined),
    remove: () => {
      for (const dir of dirs) removeWhenEmpty(dir);
    },
  };
}

function read(file: string): string {
  return readFileSync(file, "utf8").trim();
}

function tryRmdir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (err) {
    // Never created (or already gone): nothing to wait for.
    return (err as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/** The kernel refuses while a process is still inside; a few tries cover the exit in progress. */
function removeWhenEmpty(dir: string): void {
  for (let attempt = 0; attempt < 50 && !tryRmdir(dir); attempt++) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
}
