import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
// Relative, not "@selu-catalogue/testkit": the testkit depends on the kit, and a package cycle breaks turbo.
import { startEgressProxy, type EgressProxy } from "../../testkit/src/proxy/index.js";
import { createTestCa, startHttpsServer, startTlsServer, type LocalServer } from "../../testkit/src/tls/index.js";
import { defineCapability, serve, silentLogger, tool, type ServedCapability } from "../src/index.ts";
import { proxyFromEnv } from "../src/egress/index.ts";
import { call, invoke } from "./fixtures/client.ts";

// A tool's ctx.http and ctx.openTunnel go through Selu's egress proxy, configured from the environment.
const ca = createTestCa();
let api: LocalServer;
let smtp: LocalServer;
let proxy: EgressProxy;
let served: ServedCapability;
let client: import("@selu-catalogue/proto").CapabilityClient;

const capability = defineCapability({
  id: "egress-test",
  tools: {
    fetch_json: tool({
      description: "Fetches JSON",
      input: z.object({ url: z.string() }),
      policy: "allow",
      run: async ({ url }, ctx) => ({ data: await ctx.http.fetchJson(url, { signal: ctx.signal }) }),
    }),
    banner: tool({
      description: "Reads a TLS server's first line",
      input: z.object({ host: z.string(), port: z.number() }),
      policy: "allow",
      async run({ host, port }, ctx) {
        const socket = await ctx.openTunnel(host, port, { tls: true });
        const line = await new Promise<string>((resolve, reject) => {
          socket.once("data", (d: Buffer) => resolve(d.toString().trim()));
          socket.once("error", reject);
        });
        socket.destroy();
        return { line };
      },
    }),
  },
});

beforeAll(async () => {
  api = await startHttpsServer(ca.issue(["api.example.com"]), (_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"hello":"world"}');
  });
  smtp = await startTlsServer(ca.issue(["smtp.example.com"]), (socket) => socket.end("220 smtp.example.com ESMTP ready\r\n"));
  proxy = await startEgressProxy({
    capability: "egress-test",
    policy: { mode: "allowlist", hosts: ["api.example.com:443", "smtp.example.com:465"] },
    map: { "api.example.com:443": `127.0.0.1:${api.port}`, "smtp.example.com:465": `127.0.0.1:${smtp.port}` },
  });
  served = await serve(capability, {
    host: "127.0.0.1",
    port: 0,
    logger: silentLogger,
    handleSignals: false,
    egress: { proxy: proxyFromEnv(proxy.env), ca: ca.certPem },
  });
  const { CapabilityClient } = await import("@selu-catalogue/proto");
  const { credentials } = await import("@grpc/grpc-js");
  client = new CapabilityClient(`127.0.0.1:${served.port}`, credentials.createInsecure());
});

afterAll(async () => {
  client.close();
  await served.close(100);
  await proxy.close();
  await api.close();
  await smtp.close();
});

describe("ctx.http and ctx.openTunnel", () => {
  it("fetches an allowlisted host through the proxy with its credentials", async () => {
    expect(await call(client, "fetch_json", { url: "https://api.example.com/v1" })).toEqual({ data: { hello: "world" } });
    const attempt = proxy.attempts.find((a) => a.host === "api.example.com");
    expect(attempt?.decision).toBe("mapped");
  });

  it("turns a host the policy denies into an error the user can act on", async () => {
    const res = await invoke(client, { tool: "fetch_json", args: { url: "https://evil.example.net/" } });
    expect(res.error).toMatch(/egress proxy refused evil\.example\.net:443 \(403\)/);
    expect(res.error).not.toContain(proxy.token);
  });

  it("opens a TLS tunnel through the proxy for non-HTTP protocols", async () => {
    expect(await call(client, "banner", { host: "smtp.example.com", port: 465 })).toEqual({ line: "220 smtp.example.com ESMTP ready" });
  });
});
