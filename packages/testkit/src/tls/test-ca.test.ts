import { execFile } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { dirname } from "node:path";
import tls from "node:tls";
import { afterEach, describe, expect, it } from "vitest";
import { createTestCa } from "./test-ca.js";

const ca = createTestCa();
const servers: tls.Server[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function serve(cert: { cert: string; key: string }): Promise<number> {
  const server = tls.createServer(cert, (socket) => socket.end("hello\n"));
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

/** Connects with verification on; resolves with the first bytes or rejects with the TLS error. */
async function handshake(port: number, options: tls.ConnectionOptions): Promise<string> {
  const socket = tls.connect({ host: "127.0.0.1", port, ...options });
  try {
    const [data] = (await once(socket, "data")) as [Buffer];
    return data.toString();
  } finally {
    socket.destroy();
  }
}

describe("issued certificates", () => {
  it("verify for the DNS name they were issued for when the CA is trusted", async () => {
    const port = await serve(ca.issue(["api.search.brave.com"]));
    await expect(handshake(port, { ca: ca.certPem, servername: "api.search.brave.com" })).resolves.toBe("hello\n");
  });

  it("verify for an IP address entry", async () => {
    const port = await serve(ca.issue(["127.0.0.1"]));
    await expect(handshake(port, { ca: ca.certPem })).resolves.toBe("hello\n");
  });

  it("are refused for another name (hostname checks stay on)", async () => {
    const port = await serve(ca.issue(["api.search.brave.com"]));
    await expect(handshake(port, { ca: ca.certPem, servername: "evil.example.com" })).rejects.toThrow(/does not match certificate's altnames/);
  });

  it("are refused by a client that does not trust this CA", async () => {
    const port = await serve(ca.issue(["localhost"]));
    await expect(handshake(port, { servername: "localhost" })).rejects.toThrow(/unable to verify the first certificate/);
  });

  it("are refused when trusting a different test CA", async () => {
    const port = await serve(ca.issue(["localhost"]));
    await expect(handshake(port, { ca: createTestCa().certPem, servername: "localhost" })).rejects.toThrow(/unable to verify|self-signed/);
  });

  it("are refused once expired", async () => {
    const port = await serve(ca.issue(["localhost"], { validDays: -1 }));
    await expect(handshake(port, { ca: ca.certPem, servername: "localhost" })).rejects.toThrow(/certificate has expired/);
  });

  it("refuse to be issued without any name", () => {
    expect(() => ca.issue([])).toThrow("a certificate needs at least one DNS name or IP address");
  });
});

describe("writeCertFile", () => {
  it("writes a PEM that NODE_EXTRA_CA_CERTS makes a child process trust", async () => {
    const path = await ca.writeCertFile();
    try {
      expect(await readFile(path, "utf8")).toBe(ca.certPem);
      const port = await serve(ca.issue(["localhost"]));
      const script = `require("node:tls").connect({host:"127.0.0.1",port:${port},servername:"localhost"})
        .on("secureConnect",function(){process.stdout.write(String(this.authorized));this.destroy()})
        .on("error",e=>{process.stdout.write(e.message);process.exitCode=1})`;
      const out = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ["-e", script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: path } }, (err, stdout) => (err ? reject(new Error(`${err.message}: ${stdout}`)) : resolve(stdout))),
      );
      expect(out).toBe("true");
    } finally {
      await rm(dirname(path), { recursive: true, force: true });
    }
  });
});
