import { readFileSync } from "node:fs";
import { processTree } from "../process/process-tree.js";

/**
 * Peak resident memory (VmHWM) of a process tree in MiB, read from /proc: the highest of the root and
 * its descendants (the node process sits under bwrap and sh).
 */
export function peakRssMiB(rootPid: number): number {
  let peak = 0;
  for (const pid of processTree(rootPid)) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const match = /VmHWM:\s+(\d+) kB/.exec(status);
      if (match) peak = Math.max(peak, Number(match[1]) / 1024);
    } catch {
      // The process ended between listing and reading.
    }
  }
  return Math.round(peak * 10) / 10;
}
