import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContainerCgroup, memoryLimit, peakRssMiB, sandboxCommand, type ContainerCgroup } from "../src/container/index.js";
import { Orchestrator } from "../src/orchestrator/index.js";
import { startCapabilityProcess, type CapabilityProcess } from "../src/process/index.js";

const dir = fileURLToPath(new URL("fixtures/writer/", import.meta.url));
const manifest = {
  id: "writer",
  credentials: [],
  tools: [
    { name: "save", input_schema: { type: "object" } },
    { name: "hog", input_schema: { type: "object" } },
    { name: "env", input_schema: { type: "object" } },
    { name: "exec_tmp", input_schema: { type: "object" } },
    { name: "spawn", input_schema: { type: "object" } },
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
    await expect.poll(() => proc.output()).toContain("EROFS");
  });

  it("bounds /tmp at 64 MiB like Selu's tmpfs", async () => {
    const out = await orch.call("writer__save", { where: "tmp", megabytes: 80 });
    expect(out.ok).toBe(false);
    await expect.poll(() => proc.output()).toContain("ENOSPC");
  });

  it("mounts /tmp noexec, as Selu does", async () => {
    const out = await orch.call("writer__exec_tmp", {});
    expect(out, `${JSON.stringify(out)}\n${proc.output()}`).toMatchObject({ ok: true, result: { error: "EACCES" } });
  });

  it("passes only Selu's environment: PATH, the image's ENV, what the test adds; nothing of the host's", async () => {
    process.env.FIDELITY_HOST_ONLY = "leak";
    const other = await startCapabilityProcess(dir, { env: { HTTPS_PROXY: "http://selu:t@127.0.0.1:9", SELU_CAPABILITY_ID: "writer", SELU_SHARED: "true" } });
    const o = new Orchestrator();
    try {
      await o.install(manifest, other.address);
      const out = await o.call("writer__env", {});
      // PWD comes from the start script's sh, as the image's shell would set it.
      expect(out.ok && Object.keys(out.result.env as object).sort()).toEqual(["HTTPS_PROXY", "PATH", "PWD", "SELU_CAPABILITY_ID", "SELU_SHARED"]);
    } finally {
      delete process.env.FIDELITY_HOST_ONLY;
      await o.close();
      await other.stop();
    }
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

import { serverProcess } from "../src/process/index.js";
/** uid (inside its user namespace: the host sees the mapped one) and open-file limit of the server. */
function readStatus(rootPid: number): { uid: string; nofile: string } {
  const pid = serverProcess(rootPid);
  const uid = readFileSync(`/proc/${pid}/uid_map`, "utf8").trim().split(/\s+/)[0]!;
  const nofile = /Max open files\s+(\d+)/.exec(readFileSync(`/proc/${pid}/limits`, "utf8"))![1]!;
  return { uid, nofile };
}

describe.runIf(createContainerCgroupProbe())("Selu's memory and pids limits (cgroup v1, as root)", () => {
  let proc: CapabilityProcess;
  let orch: Orchestrator;
  let cgroup: ContainerCgroup;
  beforeAll(async () => {
    cgroup = createContainerCgroup({ memoryMb: 128, pidsLimit: 64 })!;
    proc = await startCapabilityProcess(dir, { wrap: (cmd) => sandboxCommand(cmd, { cgroup }) });
    orch = new Orchestrator();
    await orch.install(manifest, proc.address);
  });
  afterAll(async () => {
    await orch.close();
    await proc.stop();
    cgroup.remove();
  });

  it("creates memory and pids cgroups under a unique name with Selu's limits", () => {
    expect(cgroup.name).toMatch(/^selu-cap-[0-9a-f]{12}$/);
    expect(readFileSync(`/sys/fs/cgroup/memory/${cgroup.name}/memory.limit_in_bytes`, "utf8").trim()).toBe(String(128 * 1024 * 1024));
    expect(readFileSync(`/sys/fs/cgroup/pids/${cgroup.name}/pids.max`, "utf8").trim()).toBe("64");
    expect(cgroup.peakMiB()).toBeGreaterThan(10);
  });

  it("refuses processes and threads beyond pids_limit 64", async () => {
    const out = await orch.call("writer__spawn", { count: 80 });
    if (!out.ok) throw new Error(out.error);
    expect(out.result.started as number).toBeLessThan(64);
    expect(out.result.errors).toEqual(["EAGAIN"]);
  });

  it("counts /tmp toward the memory limit: 60 MiB in /tmp plus 90 MiB held gets the process killed", async () => {
    await orch.call("writer__save", { where: "tmp", megabytes: 60 });
    const out = await orch.call("writer__hog", { megabytes: 90 });
    expect(!out.ok && out.error).toMatch(/^Tool error: gRPC invoke failed: /);
    await expect.poll(() => cgroup.oomKills()).toBeGreaterThan(0);
  });
});

describe.runIf(createContainerCgroupProbe())("memoryLimit (cgroup v1, as root)", () => {
  it("is a memory-only cgroup of the one helper: named for its label, joined by the wrapped command, peak reset, removed", () => {
    const memory = memoryLimit(64, "limit test", () => undefined);
    expect(memory.kind).toBe("cgroup");
    const command = memory.wrap(["sh", "-c", "cat /proc/self/cgroup"]);
    const groups = execFileSync(command[0]!, command.slice(1), { encoding: "utf8" });
    const name = /:memory:\/(selu-limit-test-[0-9a-f]{12})$/m.exec(groups)?.[1];
    expect(name).toBeDefined();
    expect(groups).not.toMatch(/:pids:\/selu-/);
    expect(readFileSync(`/sys/fs/cgroup/memory/${name}/memory.limit_in_bytes`, "utf8").trim()).toBe(String(64 * 1024 * 1024));
    memory.resetPeak();
    expect(memory.peakMiB()).toBeLessThan(memory.limitMiB);
    expect(memory.oomKills()).toBe(0);
    memory.close();
    expect(existsSync(`/sys/fs/cgroup/memory/${name}`)).toBe(false);
  });
});

function createContainerCgroupProbe(): boolean {
  const probe = createContainerCgroup({ pidsLimit: 64 });
  probe?.remove();
  return probe !== undefined;
}
