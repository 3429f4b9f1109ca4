import { once } from "node:events";
import type { ServerResponse } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Relative, not "@selu-catalogue/testkit": the testkit depends on the kit, and a package cycle breaks turbo.
import { createTestCa, startHttpsServer, type LocalServer } from "../../../testkit/src/tls/index.js";
import { isAbortError } from "../errors.js";
import { EgressError } from "./errors.js";
import { createHttpClient } from "./http.js";
import type { HttpClient, HttpTimeouts } from "./http-types.js";

const KiB = 1024;
const ca = createTestCa();
const timeouts: HttpTimeouts = { connectMs: 300, headersMs: 300, bodyMs: 400 };
const big = { written: 0, finished: false, closed: false };
let server: LocalServer;
let silentTls: net.Server;
let silentPort: number;
let base: string;
let http: HttpClient;

async function writeUntil(res: ServerResponse, limit: number): Promise<void> {
  const chunk = Buffer.alloc(64 * KiB, 0x61);
  while (big.written < limit && !res.destroyed) {
    big.written += chunk.length;
    if (!res.write(chunk)) await Promise.race([once(res, "drain"), once(res, "close")]);
  }
  res.end();
}

beforeAll(async () => {
  server = await startHttpsServer(ca.issue(["127.0.0.1"]), (req, res) => {
    const url = new URL(req.url ?? "/", "https://x");
    switch (url.pathname) {
      case "/big":
        res.on("close", () => ((big.closed = true), (big.finished = res.writableFinished)));
        return void writeUntil(res, 8 * 1024 * KiB);
      case "/declared":
        res.writeHead(200, { "content-length": String(10 * 1024 * KiB) });
        return void res.write("x");
      case "/exact":
        return void res.end(Buffer.alloc(Number(url.searchParams.get("n")), 0x62));
      case "/silent":
        return; // never answers
      case "/stall":
        res.writeHead(200);
        return void res.write("partial");
      case "/trickle": {
        res.writeHead(200);
        const timer = setInterval(() => res.write("."), 40);
        return void res.on("close", () => clearInterval(timer));
      }
      case "/redirect":
        res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
        return void res.end();
      default:
        res.setHeader("content-type", "application/json");
        return void res.end(JSON.stringify(req.headers));
    }
  });
  silentTls = net.createServer((socket) => socket.resume()); // accepts TCP, never speaks TLS
  silentTls.listen(0, "127.0.0.1");
  await once(silentTls, "listening");
  silentPort = (silentTls.address() as AddressInfo).port;
  base = `https://127.0.0.1:${server.port}`;
  http = createHttpClient({ timeouts, maxResponseBytes: 256 * KiB, ca: ca.certPem, allowPrivateNetworks: true });
});

afterAll(async () => {
  await http.close();
  await server.close();
  await new Promise((r) => silentTls.close(r));
});

async function failure(promise: Promise<unknown>): Promise<EgressError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EgressError);
  return err as EgressError;
}

describe("response size cap", () => {
  it("aborts an endless response mid-stream once it passes the cap, naming the limit and the host only", async () => {
    const err = await failure(http.request(`${base}/big?token=SECRET`));
    expect(err.code).toBe("too_large");
    expect(err.message).toBe(`the response from 127.0.0.1:${server.port} is larger than the limit of 256 KiB`);
    await expect.poll(() => big.closed).toBe(true);
    expect(big.finished).toBe(false);
    expect(big.written).toBeLessThan(8 * 1024 * KiB);
  });

  it("refuses a response whose content-length is over the cap without reading it", async () => {
    const started = performance.now();
    const err = await failure(http.request(`${base}/declared`));
    expect(err.code).toBe("too_large");
    expect(performance.now() - started).toBeLessThan(timeouts.bodyMs);
  });

  it("accepts a body of exactly the cap", async () => {
    const res = await http.request(`${base}/exact?n=${256 * KiB}`);
    expect(res.body.byteLength).toBe(256 * KiB);
  });
});

describe("timeouts", () => {
  it("gives up on a server that never answers, after headersMs", async () => {
    const started = performance.now();
    const err = await failure(http.request(`${base}/silent`));
    expect(err.code).toBe("timeout");
    expect(err.message).toBe(`127.0.0.1:${server.port} did not answer within 300 ms`);
    expect(performance.now() - started).toBeLessThan(2_000); // undici checks head timeouts about once a second
  });

  it("gives up on a body that stalls, after bodyMs", async () => {
    const err = await failure(http.request(`${base}/stall`));
    expect(err.code).toBe("timeout");
    expect(err.message).toBe(`127.0.0.1:${server.port} did not send the whole response within 400 ms`);
  });

  it("bounds the whole body, so a server trickling a byte at a time can't stall a tool (slow loris)", async () => {
    const started = performance.now();
    const err = await failure(http.request(`${base}/trickle`));
    expect(err.message).toBe(`127.0.0.1:${server.port} did not send the whole response within 400 ms`);
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it("gives up on a TLS handshake that never completes, after connectMs", async () => {
    const err = await failure(http.request(`https://127.0.0.1:${silentPort}/`));
    expect(err.code).toBe("timeout");
    expect(err.message).toBe(`could not connect to 127.0.0.1:${silentPort} within 300 ms`);
  });
});

describe("cancellation", () => {
  it("rejects with the caller's abort reason while waiting for the answer", async () => {
    const controller = new AbortController();
    const reason = new Error("the tool call was cancelled");
    setTimeout(() => controller.abort(reason), 50);
    await expect(http.request(`${base}/silent`, { signal: controller.signal })).rejects.toBe(reason);
  });

  it("rejects with the caller's abort reason while reading the body", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    setTimeout(() => controller.abort(reason), 100);
    await expect(http.request(`${base}/trickle`, { signal: controller.signal })).rejects.toBe(reason);
  });

  it("does not start a request whose signal already aborted", async () => {
    const before = server.connections;
    const fresh = createHttpClient({ timeouts, maxResponseBytes: KiB, ca: ca.certPem, allowPrivateNetworks: true });
    const err = await fresh.request(`${base}/`, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(isAbortError(err)).toBe(true);
    expect(server.connections).toBe(before);
  });

  it("keeps a deadline from AbortSignal.timeout recognisable as an abort", async () => {
    const err = await http.request(`${base}/silent`, { signal: AbortSignal.timeout(50) }).catch((e: unknown) => e);
    expect(isAbortError(err)).toBe(true);
  });
});

describe("header injection", () => {
  it.each([
    ["CRLF", "abc\r\nX-Injected: 1"],
    ["a bare LF", "abc\nX-Injected: 1"],
    ["a bare CR", "abc\rX-Injected: 1"],
    ["NUL", "abc\0def"],
  ])("refuses a header value with %s, naming the header and not the value", async (_, value) => {
    const before = server.connections;
    const err = await failure(http.request(`${base}/`, { headers: { "X-Api-Key": value } }));
    expect(err.code).toBe("invalid_request");
    expect(err.message).toBe("the header X-Api-Key contains a line break or NUL character (header injection); refusing to send it");
    expect(err.message).not.toContain("abc");
    expect(server.connections).toBe(before);
  });

  it("refuses an injected Authorization header without echoing the credential", async () => {
    const err = await failure(http.request(`${base}/`, { headers: { Authorization: "Bearer SECRET-KEY\r\nX-Forwarded-For: 127.0.0.1" } }));
    expect(err.message).toBe("the header Authorization contains a line break or NUL character (header injection); refusing to send it");
    expect(`${err.stack}`).not.toContain("SECRET-KEY");
  });

  it("refuses a header name that is not a token", async () => {
    const err = await failure(http.request(`${base}/`, { headers: { "X-A\r\nX-B": "1" } }));
    expect(err.message).toBe('the header name "X-A\\r\\nX-B" is not a valid HTTP token');
  });

  it("refuses a per-request Proxy-Authorization (it would leak to the target without a proxy)", async () => {
    const err = await failure(http.request(`${base}/`, { headers: { "Proxy-Authorization": "Basic eDp5" } }));
    expect(err.message).toBe("Proxy-Authorization is set from the proxy configuration, not per request");
  });

  it("refuses a method that is not a token, or CONNECT", async () => {
    await expect(http.request(`${base}/`, { method: "GET /admin HTTP/1.1\r\n" })).rejects.toThrow(/is not a method this client sends/);
    await expect(http.request(`${base}/`, { method: "CONNECT" })).rejects.toThrow(/"CONNECT" is not a method this client sends/);
  });

  it("sends well-formed headers with lowercased names", async () => {
    const echoed = await http.fetchJson<Record<string, string>>(`${base}/`, { headers: { "X-Api-Key": "k1", Accept: "application/vnd.api+json" } });
    expect(echoed["x-api-key"]).toBe("k1");
    expect(echoed.accept).toBe("application/vnd.api+json");
  });
});

describe("client options", () => {
  it.each([
    ["maxResponseBytes", { maxResponseBytes: 0 }],
    ["timeouts.headersMs", { timeouts: { ...timeouts, headersMs: Number.POSITIVE_INFINITY } }],
    ["timeouts.bodyMs", { timeouts: { ...timeouts, bodyMs: Number.NaN } }],
  ])("refuses a %s that would disable the bound", (name, override) => {
    expect(() => createHttpClient({ timeouts, maxResponseBytes: KiB, ...override })).toThrow(`createHttpClient: ${name} must be a positive integer`);
  });
});

describe("URL checks", () => {
  it.each(["file:///etc/passwd", "ftp://example.com/x", "data:text/plain,hi", "javascript:alert(1)", "gopher://127.0.0.1:6379/_FLUSHALL"])("refuses the scheme of %s", async (url) => {
    const err = await failure(http.request(url));
    expect(err.code).toBe("invalid_request");
    expect(err.message).toMatch(/^only http: and https: URLs can be requested, not [a-z]+:$/);
  });

  it("refuses a relative or malformed URL", async () => {
    expect((await failure(http.request("/relative"))).message).toBe("the request URL is not a valid absolute URL");
  });

  it("refuses credentials in the URL without repeating them", async () => {
    const err = await failure(http.request(`https://user:hunter2@127.0.0.1:${server.port}/`));
    expect(err.message).toBe("the URL for 127.0.0.1 carries credentials; send them in a header instead");
  });

  it("returns a redirect as it is instead of following it (no redirect to internal addresses)", async () => {
    const res = await http.request(`${base}/redirect`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("http://169.254.169.254/latest/meta-data/");
  });

  it("reports a non-2xx answer from fetchJson with the status and keeps the response", async () => {
    const err = await failure(http.fetchJson(`${base}/redirect`));
    expect(err.code).toBe("http_status");
    expect(err.message).toBe(`127.0.0.1:${server.port} answered HTTP 302`);
    expect(err.response?.status).toBe(302);
  });

  it("reports a body that is not JSON from fetchJson", async () => {
    const err = await failure(http.fetchJson(`${base}/exact?n=3`));
    expect(err.code).toBe("invalid_response");
    expect(err.message).toBe(`127.0.0.1:${server.port} answered something that is not JSON`);
  });
});
