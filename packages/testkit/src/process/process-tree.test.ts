import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { cpuTimeMs, processTree } from "./process-tree.js";

/** `sh` running `node -e script` as its child, so the work happens one level down the tree. */
function shellWithNode(script: string) {
  const child = spawn("sh", ["-c", `${JSON.stringify(process.execPath)} -e ${JSON.stringify(script)}; sleep 5`], { stdio: ["ignore", "pipe", "ignore"] });
  return { child, said: once(child.stdout, "data") };
}

describe("cpuTimeMs", () => {
  it("counts the CPU a descendant spent, not the time it slept", async () => {
    const busy = shellWithNode("while (process.cpuUsage().user < 400_000); console.log('done'); setTimeout(() => {}, 5000)");
    const idle = shellWithNode("console.log('done'); setTimeout(() => {}, 5000)");
    try {
      await Promise.all([busy.said, idle.said]);
      expect(processTree(busy.child.pid!).length).toBeGreaterThan(1);
      expect(cpuTimeMs(busy.child.pid!)).toBeGreaterThanOrEqual(350);
      expect(cpuTimeMs(idle.child.pid!)).toBeLessThan(cpuTimeMs(busy.child.pid!) - 200);
    } finally {
      for (const { child } of [busy, idle]) for (const pid of processTree(child.pid!).reverse()) process.kill(pid, "SIGKILL");
    }
  });

  it("is 0 for a process that is gone", () => {
    expect(cpuTimeMs(2 ** 22 + 1)).toBe(0);
  });
});
