import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";

const MEMORY_ROOT = "/sys/fs/cgroup/memory";
const PIDS_ROOT = "/sys/fs/cgroup/pids";

/** Selu's defaults for `resources` (contract section 3). */
export const SELU_DEFAULT_MEMORY_MB = 128;
export const SELU_DEFAULT_PIDS_LIMIT = 64;

/**
 * A cgroup v1 pair (memory and pids controllers) with Selu's limits, for a capability process: the kernel
 * enforces `memory.limit_in_bytes` = max_memory_mb MiB (the /tmp tmpfs and page cache are charged to it, as
 * in Selu's container; no swap limit) and `pids.max` = pids_limit (threads count, as in Docker).
 */
export interface ContainerCgroup {
  readonly name: string;
  readonly memoryMb: number;
  readonly pidsLimit: number;
  /** The cgroup.procs files a process writes its pid to, to join both cgroups (the sandbox does it). */
  readonly procsFiles: readonly string[];
  /** Highest memory charged so far, in MiB (`memory.max_usage_in_bytes`: anonymous memory, /tmp and cache). */
  peakMiB(): number;
  /** How many processes the kernel killed for going over the memory limit. */
  oomKills(): number;
  /** Most tasks (processes and threads) at once, where the kernel reports it (`pids.peak`). */
  peakPids(): number | undefined;
  /** Removes both cgroups once their processes have exited. */
  remove(): void;
}

/**
 * Creates the cgroups under a unique name (`selu-cap-<hex>`), or returns undefined where that is not
 * possible (not root, no cgroup v1 memory or pids controller): callers then fall back to the peak-RSS bound.
 */
export function createContainerCgroup(options: { memoryMb?: number; pidsLimit?: number } = {}): ContainerCgroup | undefined {
  if (process.getuid?.() !== 0 || !existsSync(join(MEMORY_ROOT, "cgroup.procs")) || !existsSync(join(PIDS_ROOT, "cgroup.procs"))) return undefined;
  const name = `selu-cap-${randomBytes(6).toString("hex")}`;
  const memory = join(MEMORY_ROOT, name);
  const pids = join(PIDS_ROOT, name);
  const memoryMb = options.memoryMb ?? SELU_DEFAULT_MEMORY_MB;
  const pidsLimit = options.pidsLimit ?? SELU_DEFAULT_PIDS_LIMIT;
  try {
    mkdirSync(memory);
    mkdirSync(pids);
    writeFileSync(join(memory, "memory.limit_in_bytes"), String(memoryMb * 1024 * 1024));
    writeFileSync(join(pids, "pids.max"), String(pidsLimit));
  } catch {
    for (const dir of [memory, pids]) tryRmdir(dir);
    return undefined;
  }
  return {
    name,
    memoryMb,
    pidsLimit,
    procsFiles: [join(memory, "cgroup.procs"), join(pids, "cgroup.procs")],
    peakMiB: () => Math.round((Number(read(join(memory, "memory.max_usage_in_bytes"))) / 1024 / 1024) * 10) / 10,
    oomKills: () => Number(/^oom_kill (\d+)$/m.exec(read(join(memory, "memory.oom_control")))?.[1] ?? 0),
    peakPids: () => (existsSync(join(pids, "pids.peak")) ? Number(read(join(pids, "pids.peak"))) : undefined),
    remove: () => {
      for (const dir of [memory, pids]) tryRmdir(dir);
    },
  };
}

function read(file: string): string {
  return readFileSync(file, "utf8").trim();
}

function tryRmdir(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Still has processes, or never created.
  }
}
