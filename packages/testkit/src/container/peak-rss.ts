import { readFileSync } from "node:fs";
import { processTree } from "../process/process-tree.js";

/**
 * Peak resident memory (VmHWM) of a process tree in MiB, read from /proc: the highest of the root and
 * its descendants (the node process sits under bwrap and sh).
 */
export function peakRssMiB(rootPid: number): number {
  return highestOf(rootPid, /VmHWM:\s+(\d+) kB/);
}

/** Resident memory now (VmRSS) of a process tree in MiB: the highest of the root and its descendants. */
export function rssMiB(rootPid: number): number {
  return highestOf(rootPid, /VmRSS:\s+(\d+) kB/);
}

function highestOf(rootPid: number, field: RegExp): number {
  let highest = 0;
  for (const pid of processTree(rootPid)) {
    try {
      const match = field.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (match) highest = Math.max(highest, Number(match[1]) / 1024);
    } catch {
      // The process ended between listing and reading.
    }
  }
  return Math.round(highest * 10) / 10;
}
