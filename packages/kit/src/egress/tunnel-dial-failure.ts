import type net from "node:net";
import { Duplex } from "node:stream";
import { EgressError } from "./errors.js";

// Selu's egress proxy answers an allowed CONNECT with 200 *before* it dials the target, and when the dial
// fails it writes "HTTP/1.1 502 Bad Gateway" into the tunnel the client believes open (contract section 3).
// TLS would call those bytes a protocol error and SMTP a bad greeting; these helpers read them for what
// they are: the proxy could not reach the target.

/** The error for Selu's proxy writing `HTTP/1.x 5xx` as the tunnel's first bytes, or undefined. */
function proxyFailureIn(first: Buffer, target: string): EgressError | undefined {
  const status = /^HTTP\/1\.[01] (5\d\d)\b/.exec(first.subarray(0, 16).toString("latin1"));
  if (!status) return undefined;
  return new EgressError("proxy_unreachable", `the egress proxy could not reach ${target} (${status[1]} inside the tunnel)`, { status: Number(status[1]) });
}

/**
 * A plain tunnel handed to the caller as it is (SMTP and IMAP clients need the net.Socket), with its first
 * inbound bytes checked on the way in: Selu's failed-dial 502 becomes an 'error' naming the target
 * instead of a garbled greeting.
 */
export function watchPlainTunnel(socket: net.Socket, target: string): net.Socket {
  const buffered = socket.read() as Buffer | null; // what came with the CONNECT answer
  if (buffered !== null) {
    socket.unshift(buffered);
    const err = proxyFailureIn(buffered, target);
    if (err) throw err;
    return socket;
  }
  const push = socket.push.bind(socket);
  socket.push = (chunk: unknown, encoding?: BufferEncoding) => {
    socket.push = push;
    const err = Buffer.isBuffer(chunk) ? proxyFailureIn(chunk, target) : undefined;
    if (!err) return push(chunk, encoding);
    socket.destroy(err);
    return false;
  };
  return socket;
}

/**
 * The raw tunnel as a stream whose first inbound bytes are checked: `HTTP/1.x 5xx` there is Selu's proxy
 * saying it could not reach the target (a failed dial after its early 200), reported as such.
 */
export function sniffProxyFailure(socket: net.Socket, target: string): Duplex {
  let first = true;
  const stream = new Duplex({
    read: () => void socket.resume(),
    write: (chunk: Buffer, _encoding, done) => void socket.write(chunk, done),
    final: (done) => void socket.end(done),
    destroy: (err, done) => (socket.destroy(), done(err)),
  });
  socket.on("data", (chunk: Buffer) => {
    if (first) {
      first = false;
      const err = proxyFailureIn(chunk, target);
      if (err) return void stream.destroy(err);
    }
    if (!stream.push(chunk)) socket.pause();
  });
  socket.once("end", () => stream.push(null));
  socket.once("error", (err) => stream.destroy(err));
  socket.once("close", () => stream.destroy());
  return stream;
}
