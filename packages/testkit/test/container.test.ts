import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peakRssMiB, sandboxCommand } from "../src/container/index.js";
import { Orchestrator } from "../src/orchestrator/index.js";
import { startCapabilityProcess, type CapabilityProcess } from "../src/process/index.js";

const dir = fileURLToPath(new URL("fixtures/writer/", import.meta.url));
const manifest = {
  id: "writer",
  credentials: [],
  tools: [
    { name: "save", input_schema: { type: "object" } },
    { name: "hog", input_schema: { type: "object" } },
  ],
};

describe("container constraints (bubblewrap)", () => {
  let proc: CapabilityProcess;
  let orch: Orchestrator;
  beforeAll(async () => {
    proc = await startCapabilityProcess(dir, { wrap: (cmd) => sandboxCommand(cmd) });
    orch = new Orchestrator();
    await orch.install(manifest, proc.address);
  });
  afterAll(async () => {
    await orch.close();
    await proc.stop();
  });

  it("lets a capability write to its own /tmp", async () => {
    expect(await orch.call("writer__save", { where: "tmp" })).toMatchObject({ ok: true, result: { path: "/tmp/state.json" } });
  });

  it("fails a capability that writes outside /tmp (read-only root filesystem)", async () => {
    const out = await orch.call("writer__save", { where: "app" });
    expect(out.ok).toBe(false);
    expect(proc.output()).toContain("EROFS");
  });

  it("bounds /tmp at 64 MiB like Selu's tmpfs", async () => {
    const out = await orch.call("writer__save", { where: "tmp", megabytes: 80 });
    expect(out.ok).toBe(false);
    expect(proc.output()).toContain("ENOSPC");
  });

  it("runs as uid 1000 with nofile 256", () => {
    const node = readStatus(proc.child.pid!);
    expect(node.uid).toBe("1000");
    expect(node.nofile).toBe("256");
  });

  it("measures peak RSS against a memory limit", async () => {
    const before = peakRssMiB(proc.child.pid!);
    expect(before).toBeGreaterThan(10);
    expect(await orch.call("writer__hog", { megabytes: 150 })).toMatchObject({ ok: true });
    expect(peakRssMiB(proc.child.pid!)).toBeGreaterThan(128);
  });
});

import { readFileSync } from "node:fs";
import { serverProcess } from "../src/process/index.js";
/** uid (inside its user namespace: the host sees the mapped one) and open-file limit of the server. */
function readStatus(rootPid: number): { uid: string; nofile: string } {
  const pid = serverProcess(rootPid);
  const uid = readFileSync(`/proc/${pid}/uid_map`, "utf8").trim().split(/\s+/)[0]!;
  const nofile = /Max open files\s+(\d+)/.exec(readFileSync(`/proc/${pid}/limits`, "utf8"))![1]!;
  return { uid, nofile };
}
