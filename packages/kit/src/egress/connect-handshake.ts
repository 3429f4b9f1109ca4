import type { Socket } from "node:net";
import { EgressError } from "./errors.js";

// A proxy's answer to CONNECT is a status line and a few headers; more than this is not a proxy.
const MAX_HEAD_BYTES = 16 * 1024;

/**
 * Sends `CONNECT target` (with `Proxy-Authorization` when given) on a socket connected to the proxy and
 * resolves with the status of the answer once its head is complete. Bytes after the head (a server that
 * speaks first, like SMTP or IMAP, may already have sent its greeting) are put back on the socket, which
 * is left neither flowing nor paused, so the caller's first 'data' listener receives them.
 * @throws {EgressError} `proxy_unreachable` when the proxy hangs up or answers something that isn't HTTP.
 */
export function sendConnect(socket: Socket, target: string, authorization: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const cleanup = () => {
      socket.off("readable", onReadable);
      socket.off("end", onClosed);
      socket.off("close", onClosed);
      socket.off("error", onError);
    };
    const fail = (err: Error) => (cleanup(), reject(err));
    function onReadable() {
      for (let chunk: Buffer | null = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf("\r\n\r\n");
        if (end >= 0) {
          cleanup();
          const rest = head.subarray(end + 4);
          if (rest.length > 0) socket.unshift(rest);
          const status = /^HTTP\/1\.[01] (\d{3})[ \r]/.exec(head.subarray(0, end + 2).toString("latin1"));
          return status ? resolve(Number(status[1])) : reject(notHttp(target));
        }
        if (head.length > MAX_HEAD_BYTES) return fail(notHttp(target));
      }
    }
    function onClosed() {
      fail(new EgressError("proxy_unreachable", `the egress proxy closed the connection before answering the CONNECT for ${target}`));
    }
    function onError(err: Error) {
      fail(err);
    }
    socket.on("readable", onReadable);
    socket.once("end", onClosed);
    socket.once("close", onClosed);
    socket.once("error", onError);
    const auth = authorization === undefined ? "" : `Proxy-Authorization: ${authorization}\r\n`;
    socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
  });
}

function notHttp(target: string): EgressError {
  return new EgressError("proxy_unreachable", `the egress proxy answered the CONNECT for ${target} with something that is not HTTP`);
}
