import { readFileSync, readdirSync } from "node:fs";

/** A process and all its descendants, parents first, read from /proc (Linux). */
export function processTree(root: number): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${out[i]}/task`)) {
        const children = readFileSync(`/proc/${out[i]}/task/${task}/children`, "utf8").trim();
        if (children) out.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // Gone already.
    }
  }
  return out;
}

/**
 * The process that really serves: the deepest one in the tree. Under bubblewrap a signal to the
 * wrapper would tear the sandbox down; the server itself must get SIGTERM to drain.
 */
export function serverProcess(root: number): number {
  return processTree(root).at(-1) ?? root;
}

/** Kernel clock ticks per second, the unit of /proc's CPU times (USER_HZ: 100 on every Linux ABI Node runs on). */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time (user + system, milliseconds) spent so far by a process tree: every live process in it,
 * and the children each has already reaped. Unlike wall time it doesn't grow when other work shares the
 * machine, so a bound on it holds on a loaded test host.
 */
export function cpuTimeMs(root: number): number {
  let ticks = 0;
  for (const pid of processTree(root)) {
    try {
      // Fields after the command name (which may hold spaces): utime, stime, cutime, cstime are 14-17.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      for (const field of fields.slice(11, 15)) ticks += Number(field);
    } catch {
      // Gone already: its parent's cutime/cstime hold it once reaped.
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
