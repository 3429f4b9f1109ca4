import net from "node:net";
import type { Duplex } from "node:stream";
import { CONNECTION_ESTABLISHED, UPSTREAM_FAILED } from "./raw-response.js";
import type { HostPort } from "./host-policy.js";

/** How a tunnel ended up: open (the dial succeeded), or why the dial failed. */
export type DialOutcome = { connected: true } | { connected: false; error: string };

/**
 * Opens an accepted CONNECT as Selu's proxy does: `200` to the client at once, before dialling; then the
 * dial to `upstream` (or `fail` without dialling), with no timeout of its own. When the dial fails, the
 * client reads `HTTP/1.1 502 Bad Gateway` *inside* the tunnel it thinks is open, and the connection closes.
 * `head` (bytes the client sent after the CONNECT head) goes upstream first. `track` receives the upstream
 * socket so the proxy can destroy open tunnels when it closes.
 */
export function spliceTunnel(client: Duplex, head: Buffer, upstream: HostPort | { fail: string }, track: (socket: net.Socket) => void): Promise<DialOutcome> {
  client.write(CONNECTION_ESTABLISHED);
  return new Promise((resolve) => {
    const failed = (error: string) => {
      resolve({ connected: false, error });
      if (!client.destroyed) client.end(UPSTREAM_FAILED);
    };
    if ("fail" in upstream) return failed(upstream.fail);
    const socket = net.connect({ host: upstream.host, port: upstream.port });
    track(socket);
    socket.once("error", (err: NodeJS.ErrnoException) => failed(err.code ?? err.message));
    client.once("close", () => socket.destroy());
    socket.once("connect", () => {
      socket.removeAllListeners("error");
      resolve({ connected: true });
      if (client.destroyed) return void socket.destroy();
      if (head.length > 0) socket.write(head);
      socket.on("error", () => client.destroy());
      client.on("error", () => socket.destroy());
      // A clean close travels as FIN through pipe(); destroying here could drop bytes still buffered.
      socket.once("close", (hadError) => hadError && client.destroy());
      client.pipe(socket);
      socket.pipe(client);
    });
  });
}

/** `host:port`, with brackets around an IPv6 host. */
export function format(target: HostPort): string {
  return target.host.includes(":") ? `[${target.host}]:${target.port}` : `${target.host}:${target.port}`;
}
