import { dirname } from "node:path";
import { sandboxCommand } from "@selu-catalogue/testkit/container";
import { startCapabilityProcess, type CapabilityProcess } from "@selu-catalogue/testkit/process";
import { Orchestrator, createTestCa, startEgressProxy, startHttpsServer, type EgressProxy, type LocalServer } from "@selu-catalogue/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { braveSuccess, handle, providerDouble } from "./support/provider-doubles.js";
import { dir, ID, manifest } from "./support/world.js";

// The production entrypoint (the start script, as the Dockerfile runs it) under Selu's container
// constraints, with the proxy variables Selu sets: search and a page read go out through CONNECT only.
let proc: CapabilityProcess;
let proxy: EgressProxy;
let servers: LocalServer[] = [];
let orchestrator: Orchestrator;

beforeAll(async () => {
  const ca = createTestCa();
  const brave = providerDouble(braveSuccess);
  servers = [
    await startHttpsServer(ca.issue(["api.search.brave.com"]), handle(brave)),
    await startHttpsServer(ca.issue(["news.example.com"]), (_req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(
          "<html><head><title>Hello</title></head><body><article><p>A page read by the production build, through the egress proxy, with enough words to count as an article.</p></article></body></html>",
        ),
    ),
  ];
  proxy = await startEgressProxy({ policy: manifest.network as never, capability: ID });
  proxy.map("api.search.brave.com:443", `127.0.0.1:${servers[0]!.port}`);
  proxy.map("news.example.com:443", `127.0.0.1:${servers[1]!.port}`);
  const caFile = await ca.writeCertFile();
  proc = await startCapabilityProcess(dir, { env: { ...proxy.env, NODE_EXTRA_CA_CERTS: caFile, LOG_LEVEL: "warn" }, wrap: (command) => sandboxCommand(command, { readOnly: [dirname(caFile)] }) });
  orchestrator = new Orchestrator({ credentials: { [ID]: { BRAVE_API_KEY: "BSA-production" } } });
  await orchestrator.install(manifest, proc.address);
}, 40_000);
afterAll(async () => {
  await orchestrator?.close();
  await proc?.stop();
  await proxy?.close();
  for (const s of servers) await s.close();
});

describe("production entrypoint", () => {
  it("searches and reads a page through the egress proxy with CONNECT only", async () => {
    const search = await orchestrator.call(`${ID}__web_search`, { query: "selu" });
    expect(search.ok && search.result.provider).toBe("brave");
    const page = await orchestrator.call(`${ID}__fetch_page`, { url: "http://news.example.com/hello" });
    expect(page.ok && page.result.content).toContain("A page read by the production build");
    expect(proxy.attempts.every((a) => a.method === "CONNECT" && a.decision === "mapped")).toBe(true);
  });

  it("refuses an internal address before the proxy sees it", async () => {
    const before = proxy.attempts.length;
    const page = await orchestrator.call(`${ID}__fetch_page`, { url: "https://169.254.169.254/latest/meta-data/" });
    expect(!page.ok && page.error).toMatch(/refusing to fetch 169\.254\.169\.254: it is a link-local address/);
    expect(proxy.attempts.length).toBe(before);
  });
});
