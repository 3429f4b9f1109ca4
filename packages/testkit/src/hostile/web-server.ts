import type { TLSSocket } from "node:tls";
import { gzipSync } from "node:zlib";
import { startTlsServer, type LocalServer } from "../tls/local-servers.js";
import type { TestCa } from "../tls/test-ca.js";

/** What the hostile web server answers every request with (issue 10 item 3, the HTTP half). */
export type WebAttack =
  /** A chunked body that never ends. */
  | "endless-body"
  /** A response head of 1 MiB of headers. */
  | "huge-head"
  /** 64 MiB of zeros as 64 KiB of gzip, with content-encoding: gzip. */
  | "gzip-bomb"
  /** A redirect whose Location is not a URL. */
  | "bad-redirect"
  /** The head, then a body dripped a byte every 500 ms. */
  | "slow-drip"
  /** Accepts the connection and the request, never answers. */
  | "silent";

/** A hostile HTTPS server whose attack can be switched between calls. */
export interface HostileWebServer extends LocalServer {
  attack: WebAttack;
}

let bomb: Buffer | undefined;

/**
 * Starts an HTTPS server for `names` (certificate from `ca`) that answers every request with `attack`,
 * written on the raw TLS socket so it can send what no well-behaved HTTP library would. Pair it with the
 * egress proxy double's mapping.
 */
export async function startHostileWebServer(ca: TestCa, names: readonly string[], attack: WebAttack): Promise<HostileWebServer> {
  const state = { attack };
  const server = await startTlsServer(ca.issue([...names]), (socket) => {
    socket.on("error", () => {});
    socket.once("data", () => answer(socket, state.attack));
  });
  return {
    get host() {
      return server.host;
    },
    get port() {
      return server.port;
    },
    get connections() {
      return server.connections;
    },
    get attack() {
      return state.attack;
    },
    set attack(next: WebAttack) {
      state.attack = next;
    },
    close: () => server.close(),
  };
}

function answer(socket: TLSSocket, attack: WebAttack): void {
  switch (attack) {
    case "endless-body": {
      socket.write("HTTP/1.1 200 OK\r\ncontent-type: image/png\r\ntransfer-encoding: chunked\r\n\r\n");
      const chunk = Buffer.from(`4000\r\n${"z".repeat(0x4000)}\r\n`);
      const pump = () => {
        while (!socket.destroyed) if (!socket.write(chunk)) return void socket.once("drain", pump);
      };
      return pump();
    }
    case "huge-head":
      socket.write("HTTP/1.1 200 OK\r\n");
      for (let i = 0; i < 1024 && !socket.destroyed; i++) socket.write(`x-filler-${i}: ${"y".repeat(1000)}\r\n`);
      return void socket.end("\r\n");
    case "gzip-bomb":
      bomb ??= gzipSync(Buffer.alloc(64 * 1024 * 1024));
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: image/png\r\ncontent-encoding: gzip\r\ncontent-length: ${bomb.length}\r\n\r\n`);
      return void socket.end(bomb);
    case "bad-redirect":
      return void socket.end("HTTP/1.1 302 Found\r\nlocation: https://[not-a-host/x.png\r\ncontent-length: 0\r\n\r\n");
    case "slow-drip": {
      socket.write("HTTP/1.1 200 OK\r\ncontent-type: image/png\r\ncontent-length: 100000\r\n\r\n");
      const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write("x")), 500);
      return void socket.once("close", () => clearInterval(timer));
    }
    case "silent":
      return;
  }
}
