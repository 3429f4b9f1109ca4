// CPU time a server spends, read from /proc: robust where wall time is not (a machine shared with builds).
// Per thread from schedstat, in nanoseconds: a letter's few milliseconds show (utime and stime count 10 ms
// ticks, which only a mean over many calls can use).
import { readdirSync, readFileSync } from "node:fs";
import { processTree } from "@selu-catalogue/testkit";

/** CPU milliseconds one thread has run so far (0 once it has ended). */
export function threadCpuMs(pid: number, tid: number = pid): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return 0; // Ended between listing and reading.
  }
}

/** CPU milliseconds of a process tree so far, every thread of every process included. */
export function cpuMs(rootPid: number): number {
  let sum = 0;
  for (const pid of processTree(rootPid)) {
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) sum += threadCpuMs(pid, Number(tid));
  }
  return sum;
}
