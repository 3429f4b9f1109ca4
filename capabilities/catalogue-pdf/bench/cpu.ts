// CPU time a server spends, read from /proc: robust where wall time is not (a machine shared with builds).
import { readFileSync } from "node:fs";
import { processTree } from "@selu-catalogue/testkit";

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** User + system CPU milliseconds of a process tree so far (10 ms resolution; sum over many calls). */
export function cpuMs(rootPid: number): number {
  let ticks = 0;
  for (const pid of processTree(rootPid)) {
    try {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Ended between listing and reading.
    }
  }
  return ticks * TICK_MS;
}
