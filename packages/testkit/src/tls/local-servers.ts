import { once } from "node:events";
import https from "node:https";
import type { RequestListener } from "node:http";
import type { AddressInfo, Server, Socket } from "node:net";
import tls from "node:tls";
import type { IssuedCertificate } from "./test-ca.js";

/** A server listening on 127.0.0.1; `close()` also destroys the connections still open. */
export interface LocalServer {
  readonly host: string;
  readonly port: number;
  /** Connections accepted so far (a test can tell a request was refused before reaching the server). */
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * Starts an HTTPS server on loopback presenting `cert` (from a test CA, for the production name the code
 * under test uses). Pair it with the egress proxy double's mapping to keep real hostnames in tests.
 */
export function startHttpsServer(cert: IssuedCertificate, handler: RequestListener): Promise<LocalServer> {
  return listen(https.createServer(cert, handler));
}

/**
 * Starts a TLS server on loopback presenting `cert`, handing each verified-by-the-client connection to
 * `onConnection` (an SMTP/IMAP stand-in, an echo).
 */
export function startTlsServer(cert: IssuedCertificate, onConnection: (socket: tls.TLSSocket) => void): Promise<LocalServer> {
  return listen(tls.createServer(cert, onConnection));
}

async function listen(server: Server): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  server.on("connection", (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { address, port } = server.address() as AddressInfo;
  return {
    host: address,
    port,
    get connections() {
      return connections;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
