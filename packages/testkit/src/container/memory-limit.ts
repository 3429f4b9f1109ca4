import { createContainerCgroup } from "./cgroup.js";
import { peakRssMiB } from "./peak-rss.js";

/**
 * A memory limit like Selu's container limit (`resources.max_memory_mb`), for a process started with
 * `wrap`. Where the machine allows it (root, a cgroup v1 memory controller) it is a real cgroup
 * ({@link createContainerCgroup}): the kernel kills the process past the limit, as in the container.
 * Elsewhere it is the peak-RSS bound: nothing kills, and a test compares `peakMiB()` with the limit afterwards.
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

/**
 * Creates a memory limit of `limitMiB` for one process tree; `label` names the cgroup (a unique suffix is
 * added, so tests running at once never share one). `rootPid` gives the process for the peak-RSS bound.
 */
export function memoryLimit(limitMiB: number, label: string, rootPid: () => number | undefined): MemoryLimit {
  const cgroup = createContainerCgroup({ memoryMb: limitMiB, label });
  if (!cgroup) {
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
  const join = cgroup.procsFiles.map((file) => `echo $$ > '${file}'`).join(" && ");
  return {
    kind: "cgroup",
    limitMiB,
    wrap: (command) => ["sh", "-c", `${join} && exec "$@"`, "sh", ...command],
    peakMiB: cgroup.peakMiB,
    resetPeak: cgroup.resetPeak,
    oomKills: cgroup.oomKills,
    close: cgroup.remove,
  };
}
