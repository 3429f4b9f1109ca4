import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxCommand } from "../src/container/index.js";
import { Orchestrator } from "../src/orchestrator/index.js";
import { startCapabilityProcess, type CapabilityProcess } from "../src/process/index.js";
import { startEgressProxy, type EgressProxy } from "../src/proxy/index.js";
import { createTestCa, startHttpsServer, type LocalServer } from "../src/tls/index.js";

// The production name resolves nowhere here: only the proxy double maps it to a loopback server, so a
// capability that goes around the proxy fails, as it would in Selu's network-less container.
const URL_ = "https://api.example.test/v1/data";
const ca = createTestCa();
let api: LocalServer;
let proxy: EgressProxy;
let proc: CapabilityProcess;
let orch: Orchestrator;
let caFile: string;

beforeAll(async () => {
  api = await startHttpsServer(ca.issue(["api.example.test"]), (_req, res) => res.end('{"fresh":true}'));
  proxy = await startEgressProxy({
    capability: "fetcher",
    policy: { mode: "allowlist", hosts: ["api.example.test:443"] },
    map: { "api.example.test:443": `127.0.0.1:${api.port}` },
  });
  caFile = await ca.writeCertFile();
  proc = await startCapabilityProcess(fileURLToPath(new URL("fixtures/fetcher/", import.meta.url)), {
    env: { ...proxy.env, NODE_EXTRA_CA_CERTS: caFile },
    wrap: (cmd) => sandboxCommand(cmd, { readOnly: [caFile] }),
  });
  orch = new Orchestrator();
  await orch.install(
    {
      id: "fetcher",
      credentials: [],
      tools: [
        { name: "via_kit", input_schema: { type: "object" } },
        { name: "direct", input_schema: { type: "object" } },
      ],
    },
    proc.address,
  );
});
afterAll(async () => {
  await orch.close();
  await proc.stop();
  await proxy.close();
  await api.close();
  rmSync(dirname(caFile), { recursive: true, force: true });
});

describe("egress through the proxy double", () => {
  it("serves a capability that uses the proxy, and logs the attempt", async () => {
    const out = await orch.call("fetcher__via_kit", { url: URL_ });
    if (!out.ok) throw new Error(`${out.error}\n${proc.output()}`);
    expect(out).toMatchObject({ ok: true, result: { data: { fresh: true } } });
    expect(proxy.attempts.map((a) => [a.host, a.decision])).toEqual([["api.example.test", "mapped"]]);
  });

  it("fails a capability that goes around the proxy", async () => {
    const out = await orch.call("fetcher__direct", { url: URL_ });
    expect(out.ok).toBe(false);
    expect(proxy.attempts).toHaveLength(1);
  });
});
