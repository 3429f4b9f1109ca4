import { once } from "node:events";
import type { IncomingHttpHeaders } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Relative, not "@selu-catalogue/testkit": the testkit depends on the kit, and a package cycle breaks turbo.
import { startEgressProxy, type EgressProxy } from "../../../testkit/src/proxy/index.js";
import { createTestCa, startHttpsServer, type LocalServer } from "../../../testkit/src/tls/index.js";
import { EgressError } from "./errors.js";
import { createHttpClient } from "./http.js";
import type { HttpClientOptions } from "./http-types.js";
import { parseProxyUrl, proxyFromEnv, type ProxyConfig } from "./proxy-config.js";

const ca = createTestCa();
const API_KEY = "brave-api-key-123";
const timeouts = { connectMs: 2_000, headersMs: 2_000, bodyMs: 2_000 };
const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
let server: LocalServer;
let proxy: EgressProxy;

beforeAll(async () => {
  server = await startHttpsServer(ca.issue(["api.search.brave.com"]), (req, res) => {
    if (req.url === "/endless") {
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on("drain", pump);
      return pump();
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ method: req.method, url: req.url, body }));
    });
  });
  proxy = await startEgressProxy({
    capability: "catalogue-web-search",
    policy: { mode: "allowlist", hosts: ["api.search.brave.com:443"] },
    map: { "api.search.brave.com:443": `127.0.0.1:${server.port}` },
  });
});

afterAll(async () => {
  await proxy.close();
  await server.close();
});

function client(config: ProxyConfig | undefined, extra: Partial<HttpClientOptions> = {}) {
  return createHttpClient({ proxy: config, timeouts, maxResponseBytes: 1024 * 1024, ca: ca.certPem, ...extra });
}

async function failure(promise: Promise<unknown>): Promise<EgressError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EgressError);
  return err as EgressError;
}

/** Asserts no secret appears anywhere a log line or the model could see: message, stack, causes. */
function expectNoSecrets(err: unknown, secrets: readonly string[]): void {
  const texts: string[] = [];
  for (let e: unknown = err; e instanceof Error; e = e.cause) texts.push(e.message, e.stack ?? "", String(e));
  for (const secret of secrets) for (const text of texts) expect(text).not.toContain(secret);
}

describe("through the egress proxy", () => {
  it("GETs a production hostname via CONNECT with the proxy's Basic credentials", async () => {
    const http = client(proxyFromEnv(proxy.env));
    const res = await http.request("https://api.search.brave.com/res/v1/web/search?q=selu", { headers: { "X-Subscription-Token": API_KEY } });
    await http.close();
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toMatchObject({ method: "GET", url: "/res/v1/web/search?q=selu" });
    expect(proxy.attempts.at(-1)).toMatchObject({ decision: "mapped", host: "api.search.brave.com", port: 443, status: 200 });
    expect(seen.at(-1)?.headers["x-subscription-token"]).toBe(API_KEY);
  });

  it("never forwards Proxy-Authorization to the target", async () => {
    const http = client(proxyFromEnv(proxy.env));
    await http.request("https://api.search.brave.com/");
    await http.close();
    expect(seen.at(-1)?.headers).not.toHaveProperty("proxy-authorization");
    expect(seen.at(-1)?.headers["user-agent"]).toBe("selu-capability");
  });

  it("POSTs JSON and parses the JSON answer with fetchJson", async () => {
    const http = client(proxyFromEnv(proxy.env));
    const data = await http.fetchJson<{ method: string; body: string }>("https://api.search.brave.com/v1/items", {
      method: "POST",
      json: { q: "selu", n: 3 },
    });
    await http.close();
    expect(data).toEqual({ method: "POST", url: "/v1/items", body: '{"q":"selu","n":3}' });
    expect(seen.at(-1)?.headers["content-type"]).toBe("application/json");
    expect(seen.at(-1)?.headers.accept).toBe("application/json");
  });

  it("refuses plain http before contacting the proxy (Selu's proxy can't forward it)", async () => {
    const before = proxy.attempts.length;
    const err = await failure(client(proxyFromEnv(proxy.env)).request("http://api.search.brave.com/"));
    expect(err.code).toBe("invalid_request");
    expect(err.message).toBe("plain http to api.search.brave.com can't pass Selu's egress proxy (it only tunnels with CONNECT); use https://api.search.brave.com");
    expect(proxy.attempts.length).toBe(before);
  });

  it("closes the tunnel when a response passes the size cap", async () => {
    const http = client(proxyFromEnv(proxy.env), { maxResponseBytes: 128 * 1024 });
    const err = await failure(http.request("https://api.search.brave.com/endless"));
    expect(err.code).toBe("too_large");
    expect(err.message).toBe("the response from api.search.brave.com is larger than the limit of 128 KiB");
    await expect.poll(() => proxy.openTunnels).toBe(0);
    await http.close();
  });
});

describe("proxy refusals", () => {
  it("reports 407 when the proxy URL has no credentials", async () => {
    const err = await failure(client(parseProxyUrl(`http://${proxy.host}:${proxy.port}`)).request("https://api.search.brave.com/"));
    expect(err.code).toBe("proxy_auth");
    expect(err.status).toBe(407);
    expect(err.message).toBe("the egress proxy requires credentials (407) for api.search.brave.com:443, and the proxy URL has none (expected http://selu:<token>@host:port)");
    expect(proxy.attempts.at(-1)?.decision).toBe("unauthenticated");
  });

  it("reports a wrong token (Selu's proxy answers 403) as a refusal, without revealing it", async () => {
    const wrong = "wrong-token-xyz";
    const err = await failure(client(parseProxyUrl(`http://selu:${wrong}@${proxy.host}:${proxy.port}`)).request("https://api.search.brave.com/"));
    expect(err.code).toBe("proxy_refused");
    expect(err.status).toBe(403);
    expectNoSecrets(err, [wrong, Buffer.from(`selu:${wrong}`).toString("base64")]);
  });

  it("reports 403 for a host outside the allowlist, saying how to allow it and that a user's deny rule can be the cause", async () => {
    const err = await failure(client(proxyFromEnv(proxy.env)).request("https://uploads.example.com/file?sig=SIGNATURE", { headers: { Authorization: `Bearer ${API_KEY}` } }));
    expect(err.code).toBe("proxy_refused");
    expect(err.message).toBe("the egress proxy refused uploads.example.com:443 (403): allow it in the manifest's network.hosts, or remove the network rule that denies it for this agent");
    expectNoSecrets(err, [proxy.token, "SIGNATURE", API_KEY]);
  });

  it("reports an unreachable proxy with its address only", async () => {
    const scratch = net.createServer();
    scratch.listen(0, "127.0.0.1");
    await once(scratch, "listening");
    const port = (scratch.address() as AddressInfo).port;
    await new Promise((r) => scratch.close(r));
    const err = await failure(client(parseProxyUrl(`http://selu:${proxy.token}@127.0.0.1:${port}`)).request("https://api.search.brave.com/?key=K"));
    expect(err.code).toBe("proxy_unreachable");
    expect(err.message).toBe(`could not reach the egress proxy at 127.0.0.1:${port} (ECONNREFUSED)`);
    expectNoSecrets(err, [proxy.token, "key=K"]);
  });

  it("reports a proxy that hangs up before answering the CONNECT", async () => {
    const rude = net.createServer((socket) => socket.once("data", () => socket.destroy()));
    rude.listen(0, "127.0.0.1");
    await once(rude, "listening");
    try {
      const port = (rude.address() as AddressInfo).port;
      const err = await failure(client(parseProxyUrl(`http://selu:${proxy.token}@127.0.0.1:${port}`)).request("https://api.search.brave.com/"));
      expect(err.code).toBe("proxy_unreachable");
      expect(err.message).toBe("the egress proxy closed the connection before answering the CONNECT for api.search.brave.com:443");
      expectNoSecrets(err, [proxy.token]);
    } finally {
      await new Promise((r) => rude.close(r));
    }
  });

  it("reports a certificate the client doesn't trust behind the proxy as a TLS failure", async () => {
    const untrusting = client(proxyFromEnv(proxy.env), { ca: createTestCa().certPem });
    const err = await failure(untrusting.request("https://api.search.brave.com/"));
    expect(err.code).toBe("tls");
    expect(err.message).toMatch(/^the TLS handshake with api\.search\.brave\.com:443 failed: unable to verify the first certificate/);
  });
});
