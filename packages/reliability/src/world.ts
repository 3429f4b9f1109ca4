import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { memoryLimit, sandboxCommand, type MemoryLimit } from "@selu-catalogue/testkit/container";
import { connectCapability, Orchestrator, type ManifestView } from "@selu-catalogue/testkit/orchestrator";
import { startCapabilityProcess, type CapabilityProcess } from "@selu-catalogue/testkit/process";
import { startEgressProxy, type EgressProxy } from "@selu-catalogue/testkit/proxy";
import { createTestCa, type TestCa } from "@selu-catalogue/testkit/tls";
import type { CapabilityUnderTest } from "./capabilities.js";
import { CREDENTIALS } from "./profiles.js";

/** One capability running as Selu runs it, with what the suite needs to attack and observe it. */
export interface World {
  cap: CapabilityUnderTest;
  ca: TestCa;
  proxy: EgressProxy;
  proc: CapabilityProcess;
  memory: MemoryLimit;
  orchestrator: Orchestrator;
  /** The tools with their input schemas (static from the manifest, dynamic from discovery). */
  tools: { name: string; inputSchema: unknown }[];
  /** Credentials as config_json carries them. */
  config: Record<string, string>;
  /** A raw gRPC client for calls the orchestrator double would refuse (a misbehaving client). */
  client: ReturnType<typeof connectCapability>;
  /** True while the process runs and the kernel killed nothing for memory. */
  alive(): boolean;
  close(): Promise<void>;
}

/**
 * Starts `cap`'s production entrypoint in the container sandbox, under a memory limit of its manifest's
 * max_memory_mb (a cgroup where the machine allows it, else the peak-RSS bound), behind the egress proxy
 * double with its manifest's network policy, trusting a test CA, and installs it in an orchestrator double.
 */
export async function startWorld(cap: CapabilityUnderTest): Promise<World> {
  const ca = createTestCa();
  const caFile = await ca.writeCertFile();
  const proxy = await startEgressProxy({ policy: cap.manifest.network, capability: cap.id });
  let proc: CapabilityProcess | undefined;
  const memory = memoryLimit(cap.memoryMiB, `reliability-${cap.id}`, () => proc?.child.pid);
  proc = await startCapabilityProcess(cap.dir, {
    env: { ...proxy.env, NODE_EXTRA_CA_CERTS: caFile, LOG_LEVEL: "error" },
    wrap: (command) => memory.wrap(sandboxCommand(command, { readOnly: [dirname(caFile)] })),
  });
  const config: Record<string, string> = {};
  // Required credentials get a placeholder unless the profile names a value; optional ones stay unset.
  for (const credential of cap.manifest.credentials) {
    const value = CREDENTIALS[cap.id]?.[credential.name] ?? (credential.required === false ? undefined : `reliability-${credential.name}`);
    if (value !== undefined) config[credential.name] = value;
  }
  const orchestrator = new Orchestrator({ credentials: { [cap.id]: config } });
  const started = proc;
  try {
    await orchestrator.install(cap.manifest as unknown as ManifestView, started.address);
  } catch (err) {
    await started.stop();
    memory.close();
    throw new Error(`${cap.id} did not start: ${String(err)}\n${started.output()}`);
  }
  const tools =
    cap.manifest.tool_source === "dynamic"
      ? (await orchestrator.discover(cap.id)).map((t) => ({ name: t.name, inputSchema: t.input_schema }))
      : cap.manifest.tools.map((t) => ({ name: t.name, inputSchema: t.input_schema }));
  const client = connectCapability(started.address);
  return {
    cap,
    ca,
    proxy,
    proc: started,
    memory,
    orchestrator,
    tools,
    config,
    client,
    alive: () => started.child.exitCode === null && started.child.signalCode === null && memory.oomKills() === 0,
    async close() {
      client.close();
      await orchestrator.close();
      await started.stop();
      memory.close();
      await proxy.close();
      await rm(dirname(caFile), { recursive: true, force: true });
    },
  };
}
