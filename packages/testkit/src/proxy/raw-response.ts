import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

/**
 * Answers a CONNECT on its raw socket (Node hands CONNECT requests over detached from the HTTP parser)
 * with a complete HTTP/1.1 response and closes the connection, as a proxy does when it won't tunnel.
 */
export function answerAndClose(socket: Duplex, status: number, body: string, headers: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Unknown"}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ...(body ? ["Content-Type: text/plain; charset=utf-8"] : []),
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    "",
    body,
  ];
  socket.end(lines.join("\r\n"));
}

/** What Selu's proxy (hyper) answers an allowed CONNECT, before it dials: bytes after it belong to the tunnel. */
export const CONNECTION_ESTABLISHED = "HTTP/1.1 200 OK\r\n\r\n";

/** What Selu's proxy writes into an open tunnel when the dial to the target failed, then it closes. */
export const UPSTREAM_FAILED = "HTTP/1.1 502 Bad Gateway\r\n\r\n";
