import { once } from "node:events";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestCa } from "../tls/test-ca.js";
import { startEgressProxy, type EgressProxy } from "./egress-proxy.js";
import { proxyAuthorization } from "./proxy-auth.js";

interface ConnectAnswer {
  status: number;
  head: string;
  socket: net.Socket;
}

/** A minimal CONNECT client written against RFC 9110, so the proxy is tested by something independent. */
async function connect(proxy: EgressProxy, authority: string, auth: string | null = proxyAuthorization(proxy.token), early = ""): Promise<ConnectAnswer> {
  const socket = net.connect(proxy.port, proxy.host);
  await once(socket, "connect");
  const authLine = auth === null ? "" : `Proxy-Authorization: ${auth}\r\n`;
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${authLine}\r\n${early}`);
  let buffered = Buffer.alloc(0);
  for (;;) {
    const [chunk] = (await once(socket, "data")) as [Buffer];
    buffered = Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf("\r\n\r\n");
    if (end < 0) continue;
    socket.pause();
    const head = buffered.subarray(0, end).toString("latin1");
    const rest = buffered.subarray(end + 4);
    if (rest.length > 0) socket.unshift(rest);
    return { status: Number(head.split(" ")[1]), head, socket };
  }
}

async function readAll(socket: net.Socket): Promise<string> {
  socket.resume();
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

async function listen(server: net.Server): Promise<number> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

const ca = createTestCa();
const dialed: string[] = [];
const echo = net.createServer((s) => (dialed.push("echo"), s.pipe(s)));
const tlsServer = tls.createServer(ca.issue(["api.search.brave.com"]), (s) => s.end("hello over tls\n"));
let echoPort: number;
let closedPort: number;
let proxy: EgressProxy;

beforeAll(async () => {
  echoPort = await listen(echo);
  const tlsPort = await listen(tlsServer);
  const scratch = net.createServer();
  closedPort = await listen(scratch);
  await new Promise((r) => scratch.close(r));
  proxy = await startEgressProxy({
    capability: "catalogue-web-search",
    policy: {
      mode: "allowlist",
      hosts: [`127.0.0.1:${echoPort}`, `127.0.0.1:${closedPort}`, "api.search.brave.com:443", "*.example.com:443"],
    },
    map: { "api.search.brave.com:443": `127.0.0.1:${tlsPort}` },
  });
});

afterAll(async () => {
  await proxy.close();
  await Promise.all([echo, tlsServer].map((s) => new Promise((r) => s.close(r))));
});

describe("authentication", () => {
  it("answers 407 with a Basic challenge when Proxy-Authorization is missing", async () => {
    const { status, head, socket } = await connect(proxy, `127.0.0.1:${echoPort}`, null);
    socket.destroy();
    expect(status).toBe(407);
    expect(head).toMatch(/\r\nProxy-Authenticate: Basic realm="selu-egress"/);
    expect(proxy.attempts.at(-1)).toMatchObject({ capability: "catalogue-web-search", decision: "unauthenticated", status: 407, port: echoPort });
  });

  it.each([
    ["another scheme", `Bearer ${proxy?.token}`],
    ["base64 that does not decode", "Basic !!!"],
    ["no colon in the credentials", `Basic ${Buffer.from("selu").toString("base64")}`],
    ["BASIC in capitals (Selu reads only Basic and basic)", `BASIC ${Buffer.from("selu:x").toString("base64")}`],
  ])("answers 407 for an unparsable Proxy-Authorization: %s", async (_, auth) => {
    const { status, socket } = await connect(proxy, `127.0.0.1:${echoPort}`, auth);
    socket.destroy();
    expect(status).toBe(407);
    expect(proxy.attempts.at(-1)).toMatchObject({ decision: "unauthenticated", status: 407 });
  });

  it("answers 403 for a wrong token, as Selu finds no policy for it", async () => {
    const { status, socket } = await connect(proxy, `127.0.0.1:${echoPort}`, proxyAuthorization("not-the-token"));
    socket.destroy();
    expect(status).toBe(403);
    expect(proxy.attempts.at(-1)).toMatchObject({ decision: "forbidden", status: 403 });
  });

  it("does not check the user name: the right token under another name opens the tunnel", async () => {
    const auth = `basic ${Buffer.from(`admin:${proxy.token}`).toString("base64")}`;
    const { status, socket } = await connect(proxy, `127.0.0.1:${echoPort}`, auth);
    socket.destroy();
    expect(status).toBe(200);
  });

  it("checks credentials before policy, so an unauthenticated client learns nothing about the allowlist", async () => {
    const { status, socket } = await connect(proxy, "denied.invalid:443", null);
    socket.destroy();
    expect(status).toBe(407);
  });

  it("publishes the URL and the four variables as Selu sets them", () => {
    expect(proxy.url).toBe(`http://selu:${proxy.token}@127.0.0.1:${proxy.port}`);
    expect(Object.values(proxy.env)).toEqual([proxy.url, proxy.url, proxy.url, proxy.url]);
  });
});

describe("policy", () => {
  it("answers 403 for a host outside the allowlist and never dials it", async () => {
    const before = dialed.length;
    const { status, socket } = await connect(proxy, `127.0.0.1:${echoPort + 1}`);
    socket.destroy();
    expect(status).toBe(403);
    expect(dialed.length).toBe(before);
    expect(proxy.attempts.at(-1)).toMatchObject({ decision: "denied", host: "127.0.0.1", port: echoPort + 1 });
  });

  it("answers 403 for the bare suffix of a *.suffix entry", async () => {
    const { status, socket } = await connect(proxy, "example.com:443");
    socket.destroy();
    expect(status).toBe(403);
  });

  it("answers 403 when mode is none, whatever hosts says", async () => {
    const closed = await startEgressProxy({ policy: { mode: "none", hosts: [`127.0.0.1:${echoPort}`] } });
    try {
      const { status, socket } = await connect(closed, `127.0.0.1:${echoPort}`);
      socket.destroy();
      expect(status).toBe(403);
    } finally {
      await closed.close();
    }
  });

  it("does not let a mapping bypass the policy", async () => {
    const strict = await startEgressProxy({ policy: { mode: "allowlist", hosts: [] }, map: { "api.search.brave.com:443": `127.0.0.1:${echoPort}` } });
    try {
      const { status, socket } = await connect(strict, "api.search.brave.com:443");
      socket.destroy();
      expect(status).toBe(403);
    } finally {
      await strict.close();
    }
  });

  it("answers 400 for a malformed CONNECT target", async () => {
    const { status, socket } = await connect(proxy, "no-port.example.com");
    socket.destroy();
    expect(status).toBe(400);
    expect(proxy.attempts.at(-1)).toMatchObject({ decision: "invalid", host: "", port: 0 });
  });
});

describe("tunnels", () => {
  it("splices an allowed tunnel both ways, including bytes sent right after the CONNECT head", async () => {
    const { status, socket } = await connect(proxy, `127.0.0.1:${echoPort}`, undefined, "early ");
    expect(status).toBe(200);
    socket.end("late");
    expect(await readAll(socket)).toBe("early late");
    expect(proxy.attempts.at(-1)).toMatchObject({ decision: "allowed", status: 200, host: "127.0.0.1", port: echoPort });
  });

  it("maps a production name to its local stand-in, with TLS verified for the production name", async () => {
    const { status, socket } = await connect(proxy, "API.Search.Brave.com:443");
    expect(status).toBe(200);
    const secure = tls.connect({ socket, servername: "api.search.brave.com", ca: ca.certPem });
    await once(secure, "secureConnect");
    expect(secure.authorized).toBe(true);
    expect(await readAll(secure)).toBe("hello over tls\n");
    expect(proxy.attempts.at(-1)).toMatchObject({ decision: "mapped", host: "api.search.brave.com", port: 443 });
    expect(proxy.attempts.at(-1)?.mappedTo).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it("answers 200 before dialling and writes HTTP/1.1 502 inside the tunnel for an allowed public name it has no mapping for", async () => {
    const { status, head, socket } = await connect(proxy, "api.example.com:443");
    expect(status).toBe(200);
    expect(head).toBe("HTTP/1.1 200 OK");
    expect(await readAll(socket)).toBe("HTTP/1.1 502 Bad Gateway\r\n\r\n");
    expect(proxy.attempts.at(-1)).toMatchObject({ decision: "allowed", status: 200, error: expect.stringMatching(/map api\.example\.com:443 to a local server/) });
  });

  it("answers 200 before dialling and writes HTTP/1.1 502 inside the tunnel when the upstream refuses the connection", async () => {
    const { status, socket } = await connect(proxy, `127.0.0.1:${closedPort}`);
    expect(status).toBe(200);
    expect(await readAll(socket)).toBe("HTTP/1.1 502 Bad Gateway\r\n\r\n");
    expect(proxy.attempts.at(-1)).toMatchObject({ decision: "allowed", status: 200, error: "ECONNREFUSED" });
  });

  it("counts open tunnels and destroys them on close()", async () => {
    const own = await startEgressProxy({ policy: { mode: "any", hosts: [] } });
    const { status, socket } = await connect(own, `127.0.0.1:${echoPort}`);
    expect(status).toBe(200);
    await expect.poll(() => own.openTunnels).toBe(1);
    const closed = once(socket, "close");
    await own.close();
    await closed;
    await expect.poll(() => own.openTunnels).toBe(0);
  });
});

describe("plain-http forwarding", () => {
  it("is refused with 501 and logged as unsupported, as Selu's proxy can't forward it", async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get({ host: proxy.host, port: proxy.port, path: "http://api.example.com/", headers: { "proxy-authorization": proxyAuthorization(proxy.token) } }, resolve).on("error", reject),
    );
    res.resume();
    expect(res.statusCode).toBe(501);
    expect(proxy.attempts.at(-1)).toMatchObject({ method: "GET", target: "http://api.example.com/", decision: "unsupported" });
  });
});
