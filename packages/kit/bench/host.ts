// How busy the host was with other work while the bench measured: the bench shares the machine's
// cores with whatever else runs (builds, test suites), and throughput ratios are only fair on a quiet host.
import { readFileSync } from "node:fs";
import { cpus } from "node:os";

export interface HostSample {
  /** CPU time all processes used on all cores (busy time from /proc/stat), seconds. */
  busySeconds: number;
  at: number;
}

/** USER_HZ: /proc/stat counts in 1/100 s on Linux. */
const TICKS_PER_SECOND = 100;

export function sampleHost(): HostSample {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
  // cpu user nice system idle iowait irq softirq steal ...
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = fields[3]! + fields[4]!;
  return { busySeconds: (total - idle) / TICKS_PER_SECOND, at: performance.now() };
}

/**
 * The share of the host's CPU capacity (0..1) that processes other than the bench used between two
 * samples, given the CPU seconds the bench's own processes used meanwhile.
 */
export function foreignShare(before: HostSample, after: HostSample, ownCpuSeconds: number): number {
  const capacity = ((after.at - before.at) / 1000) * cpus().length;
  if (capacity <= 0) return 0;
  return Math.max(0, (after.busySeconds - before.busySeconds - ownCpuSeconds) / capacity);
}
