import { once } from "node:events";
import net, { type AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EgressError } from "./errors.js";
import { createHttpClient } from "./http.js";
import type { HttpClient } from "./http-types.js";

// Issue 10 item 3, the HTTP half: what a hostile server can send back to the kit's client. Raw TCP, so
// the answers can be what no well-behaved HTTP server library would write.
const KiB = 1024;
let server: net.Server;
let base: string;
let http: HttpClient;
const bomb = gzipSync(Buffer.alloc(64 * 1024 * KiB));

beforeAll(async () => {
  server = net.createServer((socket) => {
    socket.on("error", () => {});
    socket.once("data", (data: Buffer) => {
      const path = /^GET (\S+)/.exec(data.toString("latin1"))?.[1] ?? "/";
      if (path === "/huge-head") {
        // 1 MiB of headers: more than any real response head.
        socket.write("HTTP/1.1 200 OK\r\n");
        for (let i = 0; i < 1024 && !socket.destroyed; i++) socket.write(`x-filler-${i}: ${"y".repeat(1000)}\r\n`);
        return void socket.end("\r\n");
      }
      if (path === "/gzip-bomb") {
        // 64 MiB of zeros as 64 KiB of gzip, declared as content-encoding: the client must not inflate it.
        socket.write(`HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-type: application/json\r\ncontent-length: ${bomb.length}\r\n\r\n`);
        return void socket.end(bomb);
      }
      if (path === "/endless-chunks") {
        socket.write("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n");
        const chunk = Buffer.from(`4000\r\n${"z".repeat(0x4000)}\r\n`);
        const pump = () => {
          while (!socket.destroyed) if (!socket.write(chunk)) return void socket.once("drain", pump);
        };
        return void pump();
      }
      if (path.startsWith("/byte-chunks/")) {
        // A body a byte per chunk: the bytes count up (mod 251) so any misplaced byte shows.
        const size = Number(path.slice("/byte-chunks/".length));
        socket.write("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n");
        let sent = 0;
        const pump = () => {
          while (!socket.destroyed && sent < size) {
            const piece = Buffer.concat(Array.from({ length: Math.min(4096, size - sent) }, () => Buffer.from([0x31, 13, 10, sent++ % 251, 13, 10])));
            if (!socket.write(piece)) return void socket.once("drain", pump);
          }
          if (!socket.destroyed) socket.end("0\r\n\r\n");
        };
        return void pump();
      }
      socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  http = createHttpClient({ timeouts: { connectMs: 2_000, headersMs: 2_000, bodyMs: 5_000 }, maxResponseBytes: 256 * KiB, allowPrivateNetworks: true });
});

afterAll(async () => {
  await http.close();
  await new Promise((resolve) => server.close(resolve));
});

describe("a hostile HTTP server", () => {
  it("sending a response head of 1 MiB gets an error naming the host and the cause", async () => {
    const err = await http.request(`${base}/huge-head`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EgressError);
    expect((err as EgressError).message).toMatch(/^the response head from 127\.0\.0\.1:\d+ is larger than \d+ KiB$/);
  });

  it("sending a gzip bomb with content-encoding gets the compressed bytes back, never inflated", async () => {
    const res = await http.request(`${base}/gzip-bomb`);
    expect(res.body.equals(bomb)).toBe(true);
    await expect(http.fetchJson(`${base}/gzip-bomb`)).rejects.toThrow(/answered something that is not JSON/);
  });

  it("sending a body a byte per chunk gets it whole, and cut at the size cap when larger", async () => {
    const res = await http.request(`${base}/byte-chunks/${200 * KiB}`);
    expect(res.body.equals(Buffer.from(Array.from({ length: 200 * KiB }, (_, i) => i % 251)))).toBe(true);
    await expect(http.request(`${base}/byte-chunks/${300 * KiB}`)).rejects.toThrow(/is larger than the limit of 256 KiB/);
  });

  it("sending chunks without end is cut at the size cap", async () => {
    await expect(http.request(`${base}/endless-chunks`)).rejects.toThrow(/is larger than the limit of 256 KiB/);
  });
});
