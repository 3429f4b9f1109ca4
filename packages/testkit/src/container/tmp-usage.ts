import { statfsSync } from "node:fs";
import { serverProcess } from "../process/process-tree.js";

/**
 * How much of its own /tmp a sandboxed process uses now, in MiB, read through /proc/<pid>/root (root
 * only; 0 where that is not readable). Selu's /tmp is a tmpfs charged to the container's memory limit, so
 * the peak-RSS bound adds it.
 */
export function tmpUsageMiB(rootPid: number): number {
  try {
    const stats = statfsSync(`/proc/${serverProcess(rootPid)}/root/tmp`);
    return Math.round((((stats.blocks - stats.bfree) * stats.bsize) / 1024 / 1024) * 10) / 10;
  } catch {
    return 0;
  }
}
