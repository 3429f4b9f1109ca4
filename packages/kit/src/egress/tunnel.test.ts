import { once } from "node:events";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Relative, not "@selu-catalogue/testkit": the testkit depends on the kit, and a package cycle breaks turbo.
import { startEgressProxy, type EgressProxy } from "../../../testkit/src/proxy/index.js";
import { createTestCa, startTlsServer, type LocalServer } from "../../../testkit/src/tls/index.js";
import { EgressError } from "./errors.js";
import { parseProxyUrl, proxyFromEnv, type ProxyConfig } from "./proxy-config.js";
import { openTunnel } from "./tunnel.js";

const ca = createTestCa();
let tlsEcho: LocalServer;
let imap: net.Server;
let imapPort: number;
let proxy: EgressProxy;
let config: ProxyConfig;
const rawServers: net.Server[] = [];

async function listen(server: net.Server): Promise<number> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

/** A fake proxy with a scripted misbehaviour, for the failures Selu's proxy should never show. */
async function misbehavingProxy(onConnection: (socket: net.Socket) => void): Promise<ProxyConfig> {
  const server = net.createServer(onConnection);
  rawServers.push(server);
  return parseProxyUrl(`http://selu:${proxy.token}@127.0.0.1:${await listen(server)}`);
}

async function readLine(socket: net.Socket): Promise<string> {
  const [data] = (await once(socket, "data")) as [Buffer];
  return data.toString();
}

async function failure(promise: Promise<unknown>): Promise<EgressError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EgressError);
  const texts = [(err as Error).message, (err as Error).stack ?? "", String((err as Error).cause ?? "")];
  for (const text of texts) expect(text).not.toContain(proxy.token);
  return err as EgressError;
}

beforeAll(async () => {
  tlsEcho = await startTlsServer(ca.issue(["smtp.example.com"]), (socket) => socket.pipe(socket));
  // IMAP speaks first: its greeting can arrive in the same packet as the proxy's 200.
  imap = net.createServer((socket) => socket.end("* OK IMAP4rev1 ready\r\n"));
  imapPort = await listen(imap);
  proxy = await startEgressProxy({
    capability: "mail",
    policy: { mode: "allowlist", hosts: ["smtp.example.com:465", "imap.example.com:143", "*.mail.example.org"] },
    map: { "smtp.example.com:465": `127.0.0.1:${tlsEcho.port}`, "imap.example.com:143": `127.0.0.1:${imapPort}` },
  });
  config = proxyFromEnv(proxy.env)!;
});

afterAll(async () => {
  await proxy.close();
  await tlsEcho.close();
  for (const server of [imap, ...rawServers]) await new Promise((r) => server.close(r));
});

describe("through the egress proxy", () => {
  it("opens a verified TLS connection to the production name via CONNECT", async () => {
    const socket = await openTunnel({ proxy: config, host: "smtp.example.com", port: 465, tls: { ca: ca.certPem }, timeoutMs: 2_000 });
    expect(socket.authorized).toBe(true);
    socket.write("EHLO selu\r\n");
    expect(await readLine(socket)).toBe("EHLO selu\r\n");
    socket.destroy();
    expect(proxy.attempts.at(-1)).toMatchObject({ capability: "mail", decision: "mapped", host: "smtp.example.com", port: 465 });
  });

  it("opens a plain TCP tunnel to a server that speaks first", async () => {
    const socket = await openTunnel({ proxy: config, host: "imap.example.com", port: 143, timeoutMs: 2_000 });
    expect(await readLine(socket)).toBe("* OK IMAP4rev1 ready\r\n");
    socket.destroy();
  });

  it("reports a host outside the allowlist (403) with the fix", async () => {
    const err = await failure(openTunnel({ proxy: config, host: "smtp.evil.example", port: 587, timeoutMs: 2_000 }));
    expect(err.code).toBe("proxy_refused");
    expect(err.message).toBe("the egress proxy refused smtp.evil.example:587 (403): allow it in the manifest's network.hosts, or remove the network rule that denies it for this agent");
  });

  it("reports missing credentials (407)", async () => {
    const bare = parseProxyUrl(`http://${proxy.host}:${proxy.port}`);
    const err = await failure(openTunnel({ proxy: bare, host: "smtp.example.com", port: 465, timeoutMs: 2_000 }));
    expect(err.code).toBe("proxy_auth");
    expect(err.message).toMatch(/^the egress proxy requires credentials \(407\) for smtp\.example\.com:465/);
  });

  it("reports a wrong token (Selu's proxy answers 403) without revealing either token", async () => {
    const wrong = parseProxyUrl(`http://selu:not-${proxy.token}-at-all@${proxy.host}:${proxy.port}`);
    const err = await failure(openTunnel({ proxy: wrong, host: "smtp.example.com", port: 465, timeoutMs: 2_000 }));
    expect(err.status).toBe(403);
    expect(err.message).toMatch(/^the egress proxy refused smtp\.example\.com:465 \(403\)/);
  });

  it("reports unreadable credentials (407) as such", async () => {
    const odd = { ...config, authorization: "Basic !!!" };
    const err = await failure(openTunnel({ proxy: odd, host: "smtp.example.com", port: 465, timeoutMs: 2_000 }));
    expect(err.message).toMatch(/^the egress proxy could not read the credentials of the proxy URL \(407\) for smtp\.example\.com:465/);
  });

  it("reads a 502 inside a TLS tunnel (Selu's proxy could not dial) as the proxy not reaching the target, not as a TLS error", async () => {
    const err = await failure(openTunnel({ proxy: config, host: "a.mail.example.org", port: 993, tls: { ca: ca.certPem }, timeoutMs: 2_000 }));
    expect(err.code).toBe("proxy_unreachable");
    expect(err.message).toBe("the egress proxy could not reach a.mail.example.org:993 (502 inside the tunnel)");
  });

  it("reads a 502 inside a plain tunnel as the proxy not reaching the target, not as the server's greeting", async () => {
    // The 502 may come with the 200 (openTunnel rejects) or just after it (the socket fails).
    const err = await openTunnel({ proxy: config, host: "b.mail.example.org", port: 587, timeoutMs: 2_000 }).then(
      async (socket) => ((await once(socket, "error")) as [EgressError])[0],
      (e: EgressError) => e,
    );
    expect(err.message).toBe("the egress proxy could not reach b.mail.example.org:587 (502 inside the tunnel)");
  });

  it("reports other refusals with their status", async () => {
    const other = await misbehavingProxy((socket) => socket.once("data", () => socket.end("HTTP/1.1 503 Service Unavailable\r\n\r\n")));
    const err = await failure(openTunnel({ proxy: other, host: "a.mail.example.org", port: 993, timeoutMs: 2_000 }));
    expect(err.message).toBe("the egress proxy could not open a tunnel to a.mail.example.org:993 (503)");
    expect(err.status).toBe(503);
  });

  it("refuses a certificate for another name through the tunnel", async () => {
    const err = await failure(openTunnel({ proxy: config, host: "smtp.example.com", port: 465, tls: { ca: ca.certPem, servername: "other.example.com" }, timeoutMs: 2_000 }));
    expect(err.code).toBe("tls");
    expect(err.message).toMatch(/^the TLS handshake with smtp\.example\.com:465 failed: Hostname\/IP does not match certificate's altnames/);
  });

  it("refuses a certificate from a CA it does not trust", async () => {
    const err = await failure(openTunnel({ proxy: config, host: "smtp.example.com", port: 465, tls: true, timeoutMs: 2_000 }));
    expect(err.code).toBe("tls");
  });
});

describe("a proxy that misbehaves", () => {
  it("reports a proxy that closes before answering", async () => {
    const rude = await misbehavingProxy((socket) => socket.once("data", () => socket.end()));
    const err = await failure(openTunnel({ proxy: rude, host: "smtp.example.com", port: 465, timeoutMs: 2_000 }));
    expect(err.code).toBe("proxy_unreachable");
    expect(err.message).toBe("the egress proxy closed the connection before answering the CONNECT for smtp.example.com:465");
  });

  it("reports a proxy that answers something other than HTTP", async () => {
    const odd = await misbehavingProxy((socket) => socket.once("data", () => socket.write("SSH-2.0-OpenSSH_9.6\r\n\r\n")));
    const err = await failure(openTunnel({ proxy: odd, host: "smtp.example.com", port: 465, timeoutMs: 2_000 }));
    expect(err.message).toBe("the egress proxy answered the CONNECT for smtp.example.com:465 with something that is not HTTP");
  });

  it("gives up on a silent proxy after timeoutMs and closes the connection", async () => {
    let closed = false;
    const silent = await misbehavingProxy((socket) => (socket.resume(), socket.once("close", () => (closed = true))));
    const started = performance.now();
    const err = await failure(openTunnel({ proxy: silent, host: "smtp.example.com", port: 465, timeoutMs: 200 }));
    expect(err.code).toBe("timeout");
    expect(err.message).toBe("could not open a connection to smtp.example.com:465 through the egress proxy within 200 ms");
    expect(performance.now() - started).toBeLessThan(1_000);
    await expect.poll(() => closed).toBe(true);
  });

  it("stops when the caller aborts, with the caller's reason, and closes the connection", async () => {
    let closed = false;
    const silent = await misbehavingProxy((socket) => (socket.resume(), socket.once("close", () => (closed = true))));
    const controller = new AbortController();
    const reason = new Error("cancelled by the user");
    setTimeout(() => controller.abort(reason), 50);
    await expect(openTunnel({ proxy: silent, host: "smtp.example.com", port: 465, timeoutMs: 5_000, signal: controller.signal })).rejects.toBe(reason);
    await expect.poll(() => closed).toBe(true);
  });

  it("closes the tunnel when the caller aborts during the TLS handshake", async () => {
    let closed = false;
    // Answers the CONNECT, then never speaks TLS: the handshake hangs until the abort.
    const stalled = await misbehavingProxy((socket) => {
      socket.once("data", () => socket.write("HTTP/1.1 200 Connection Established\r\n\r\n"));
      socket.once("close", () => (closed = true));
    });
    const controller = new AbortController();
    const reason = new Error("cancelled by the user");
    setTimeout(() => controller.abort(reason), 100);
    await expect(openTunnel({ proxy: stalled, host: "smtp.example.com", port: 465, tls: true, timeoutMs: 5_000, signal: controller.signal })).rejects.toBe(reason);
    await expect.poll(() => closed, { timeout: 1_000 }).toBe(true);
  });

  it("keeps server bytes that arrive in the same packet as the proxy's 200", async () => {
    const eager = await misbehavingProxy((socket) => socket.once("data", () => socket.write("HTTP/1.1 200 Connection Established\r\n\r\n* OK IMAP4rev1 ready\r\n")));
    const socket = await openTunnel({ proxy: eager, host: "imap.example.com", port: 143, timeoutMs: 2_000 });
    expect(await readLine(socket)).toBe("* OK IMAP4rev1 ready\r\n");
    socket.destroy();
  });

  it("reports an unreachable proxy with its address", async () => {
    const scratch = net.createServer();
    const port = await listen(scratch);
    await new Promise((r) => scratch.close(r));
    const gone = parseProxyUrl(`http://selu:${proxy.token}@127.0.0.1:${port}`);
    const err = await failure(openTunnel({ proxy: gone, host: "smtp.example.com", port: 465, timeoutMs: 2_000 }));
    expect(err.message).toBe(`could not reach the egress proxy at 127.0.0.1:${port} (ECONNREFUSED)`);
  });
});

describe("without a proxy", () => {
  it("connects directly with TLS when private networks are allowed", async () => {
    const localCert = ca.issue(["127.0.0.1"]);
    const local = await startTlsServer(localCert, (socket) => socket.end("220 ready\r\n"));
    try {
      const socket = await openTunnel({ host: "127.0.0.1", port: local.port, tls: { ca: ca.certPem }, timeoutMs: 2_000, allowPrivateNetworks: true });
      expect(await readLine(socket)).toBe("220 ready\r\n");
      socket.destroy();
    } finally {
      await local.close();
    }
  });

  it("connects directly over plain TCP when private networks are allowed", async () => {
    const socket = await openTunnel({ host: "127.0.0.1", port: imapPort, timeoutMs: 2_000, allowPrivateNetworks: true });
    expect(await readLine(socket)).toBe("* OK IMAP4rev1 ready\r\n");
    socket.destroy();
  });

  it("refuses loopback and names resolving to it by default (SSRF guard)", async () => {
    const err = await failure(openTunnel({ host: "127.0.0.1", port: imapPort, timeoutMs: 2_000 }));
    expect(err.code).toBe("blocked_address");
    const lookup = ((_host, _options, callback) => callback(null, [{ address: "127.0.0.1", family: 4 }])) as net.LookupFunction;
    const viaName = await failure(openTunnel({ host: "mail.internal.example", port: imapPort, timeoutMs: 2_000, lookup }));
    expect(viaName.message).toMatch(/^refusing to connect to mail\.internal\.example \(127\.0\.0\.1\)/);
  });

  it("refuses a decimal-encoded loopback host, resolved by the system resolver", async () => {
    const err = await failure(openTunnel({ host: "2130706433", port: imapPort, timeoutMs: 2_000 }));
    expect(err.message).toMatch(/^refusing to connect to 2130706433 \(127\.0\.0\.1\)/);
  });
});

describe("target checks", () => {
  it.each([
    ["a CRLF in the host (CONNECT line injection)", "smtp.example.com\r\nX-Evil: 1"],
    ["a space", "smtp example.com"],
    ["userinfo", "user@smtp.example.com"],
    ["an empty host", ""],
  ])("refuses %s", async (_, host) => {
    const err = await failure(openTunnel({ proxy: config, host, port: 465, timeoutMs: 2_000 }));
    expect(err.code).toBe("invalid_request");
    expect(err.message).toMatch(/is not a host name or IP address$/);
  });

  it.each([0, 65536, 1.5, Number.NaN])("refuses port %s", async (port) => {
    const err = await failure(openTunnel({ proxy: config, host: "smtp.example.com", port, timeoutMs: 2_000 }));
    expect(err.message).toBe(`${port} is not a TCP port (1-65535)`);
  });

  it("accepts a bracketed IPv6 host and brackets it in the CONNECT", async () => {
    const err = await failure(openTunnel({ proxy: config, host: "[2606:4700::1111]", port: 25, timeoutMs: 2_000 }));
    expect(err.message).toBe("the egress proxy refused [2606:4700::1111]:25 (403): allow it in the manifest's network.hosts, or remove the network rule that denies it for this agent");
  });
});
