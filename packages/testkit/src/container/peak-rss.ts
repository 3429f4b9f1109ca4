import { readFileSync, readdirSync } from "node:fs";

/**
 * Peak resident memory (VmHWM) of a process tree in MiB, read from /proc: the highest of the root and
 * its descendants (the node process sits under bwrap and sh).
 */
export function peakRssMiB(rootPid: number): number {
  let peak = 0;
  for (const pid of descendants(rootPid)) {
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

function descendants(root: number): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    const pid = out[i]!;
    try {
      for (const task of readdirSync(`/proc/${pid}/task`)) {
        const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
        if (children) out.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // Gone already.
    }
  }
  return out;
}
