import net from "node:net";
import type { Duplex } from "node:stream";
import { answerAndClose, CONNECTION_ESTABLISHED } from "./raw-response.js";
import type { HostPort } from "./host-policy.js";

/** How a dial ended: the tunnel opened (200), or the status the client was answered with and why. */
export type DialOutcome = { status: 200 } | { status: 502 | 504; error: string };

/**
 * Dials `upstream` for an accepted CONNECT, then answers the client: 200 and both directions spliced,
 * 502 when the upstream refuses or fails, 504 when it doesn't answer within `timeoutMs`. `head` (bytes
 * the client sent after the CONNECT head) goes upstream first. `track` receives the upstream socket so
 * the proxy can destroy open tunnels when it closes.
 */
export function spliceTunnel(
  client: Duplex,
  head: Buffer,
  upstream: HostPort,
  timeoutMs: number,
  track: (socket: net.Socket) => void,
): Promise<DialOutcome> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: upstream.host, port: upstream.port });
    track(socket);
    let settled = false;
    const fail = (status: 502 | 504, error: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status, error });
      answerAndClose(client, status, `the egress proxy could not reach ${format(upstream)}: ${error}\n`);
    };
    const timer = setTimeout(() => fail(504, `no connection within ${timeoutMs} ms`), timeoutMs);
    socket.once("error", (err: NodeJS.ErrnoException) => fail(502, err.code ?? err.message));
    client.once("close", () => socket.destroy());
    socket.once("connect", () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeAllListeners("error");
      resolve({ status: 200 });
      if (client.destroyed) return void socket.destroy();
      client.write(CONNECTION_ESTABLISHED);
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
