import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { peakRssMiB } from "./peak-rss.js";

const CGROUP_V1 = "/sys/fs/cgroup/memory";

/**
 * A memory limit like Selu's container limit (`resources.max_memory_mb`), for a process started with
 * `wrap`. Where the machine allows it (root, a cgroup v1 memory controller) it is a real cgroup: the
 * kernel kills the process past the limit, as in the container. Elsewhere it is the peak-RSS bound:
 * nothing kills, and a test compares `peakMiB()` with the limit afterwards.
 */
export interface MemoryLimit {
  readonly kind: "cgroup" | "peak-rss";
  readonly limitMiB: number;
  /** Wraps a command so that it starts inside the limit (outermost: before bubblewrap drops root). */
  wrap(command: readonly string[]): string[];
  /** Highest memory use so far, MiB: the cgroup's max usage (page cache and /tmp included), or peak RSS. */
  peakMiB(): number;
  /** Starts measuring the peak afresh (cgroup v1 resets max_usage_in_bytes; peak RSS can't be reset). */
  resetPeak(): void;
  /** Processes the kernel killed for memory in this cgroup (0 under the peak-RSS bound). */
  oomKills(): number;
  /** Removes the cgroup (after the process has exited). */
  close(): void;
}

/** True when this process may create cgroup v1 memory groups. */
export function hasMemoryCgroup(): boolean {
  if (process.getuid?.() !== 0 || !existsSync(join(CGROUP_V1, "memory.limit_in_bytes"))) return false;
  const probe = join(CGROUP_V1, `selu-probe-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates a memory limit of `limitMiB` for one process tree; `label` names the cgroup (a unique suffix is
 * added, so tests running at once never share one). `rootPid` gives the process for the peak-RSS bound.
 */
export function memoryLimit(limitMiB: number, label: string, rootPid: () => number | undefined): MemoryLimit {
  if (!hasMemoryCgroup()) {
    return {
      kind: "peak-rss",
      limitMiB,
      wrap: (command) => [...command],
      peakMiB: () => {
        const pid = rootPid();
        return pid === undefined ? 0 : peakRssMiB(pid);
      },
      oomKills: () => 0,
      resetPeak: () => {},
      close: () => {},
    };
  }
  const dir = join(CGROUP_V1, `selu-${label.replace(/[^a-z0-9-]/gi, "-")}-${process.pid}-${randomBytes(4).toString("hex")}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "memory.limit_in_bytes"), String(limitMiB * 1024 * 1024));
  const read = (file: string) => readFileSync(join(dir, file), "utf8");
  return {
    kind: "cgroup",
    limitMiB,
    wrap: (command) => ["sh", "-c", `echo $$ > '${dir}/cgroup.procs' && exec "$@"`, "sh", ...command],
    peakMiB: () => Math.round((Number(read("memory.max_usage_in_bytes")) / 1024 / 1024) * 10) / 10,
    resetPeak: () => writeFileSync(join(dir, "memory.max_usage_in_bytes"), "0"),
    oomKills: () => Number(/oom_kill (\d+)/.exec(read("memory.oom_control"))?.[1] ?? 0),
    close() {
      // The kernel refuses while a process is still inside; a few tries cover the exit in progress.
      for (let attempt = 0; attempt < 50; attempt++) {
        try {
          rmdirSync(dir);
          return;
        } catch {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
        }
      }
    },
  };
}
