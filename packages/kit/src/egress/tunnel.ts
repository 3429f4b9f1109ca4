import net, { isIP, isIPv6, type LookupFunction } from "node:net";
import tls from "node:tls";
import { guardedLookup, refuseInternalName } from "./address-guard.js";
import { sendConnect } from "./connect-handshake.js";
import { EgressError } from "./errors.js";
import { formatTarget, proxyRefusal } from "./proxy-refusal.js";
import { sniffProxyFailure, watchPlainTunnel } from "./tunnel-dial-failure.js";
import type { ProxyConfig } from "./proxy-config.js";

/** Options of {@link openTunnel}. */
export interface TunnelOptions {
  /** Selu's egress proxy; absent means a direct connection. */
  proxy?: ProxyConfig | undefined;
  host: string;
  port: number;
  /** Wrap the tunnel in TLS (certificates verified, servername = host); an object adds TLS options such as `ca`. */
  tls?: boolean | tls.ConnectionOptions;
  /** Cancels opening the tunnel; it does not close the returned socket later. */
  signal?: AbortSignal;
  /** Time allowed to connect, get the proxy's answer and finish the TLS handshake, in ms. */
  timeoutMs: number;
  /** Lets a tunnel reach internal addresses (see `HttpClientOptions.allowPrivateNetworks`). */
  allowPrivateNetworks?: boolean;
  /** Resolves names for direct connections instead of `dns.lookup`. */
  lookup?: LookupFunction;
}

/**
 * Opens a TCP connection to `host:port` for protocols other than HTTP (SMTP, IMAP: nodemailer and
 * imapflow accept a connected socket): through Selu's egress proxy with HTTP CONNECT and
 * `Proxy-Authorization` when a proxy is set, directly otherwise, then TLS when asked. The SSRF guard of
 * the HTTP client applies. The caller owns the returned socket (attach an 'error' listener).
 *
 * @throws {EgressError} `proxy_refused` (403: the manifest's network.hosts lacks the host), `proxy_auth`
 * (407), `proxy_unreachable`, `timeout`, `tls`, `network`, `blocked_address`, `invalid_request`; the
 * signal's reason when aborted.
 * @example
 * // nodemailer: hand it the tunnel through its getSocket hook, already secured.
 * const transport = nodemailer.createTransport({
 *   host: "smtp.example.com", port: 465, secure: true,
 *   getSocket: (_options, done) =>
 *     openTunnel({ proxy, host: "smtp.example.com", port: 465, tls: true, timeoutMs: 10_000 })
 *       .then((connection) => done(null, { connection, secured: true }), done),
 * });
 */
export function openTunnel(options: TunnelOptions & { tls: true | tls.ConnectionOptions }): Promise<tls.TLSSocket>;
export function openTunnel(options: TunnelOptions & { tls?: false | undefined }): Promise<net.Socket>;
export function openTunnel(options: TunnelOptions): Promise<net.Socket | tls.TLSSocket>;
export async function openTunnel(options: TunnelOptions): Promise<net.Socket | tls.TLSSocket> {
  const { port, proxy, signal, timeoutMs } = options;
  const host = checkTarget(options.host, port);
  if (!options.allowPrivateNetworks) refuseInternalName(host);
  signal?.throwIfAborted();
  const target = formatTarget(host, port);
  const opened: net.Socket[] = [];
  const via = proxy ? " through the egress proxy" : "";
  let stop = () => {};
  const deadline = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => reject(new EgressError("timeout", `could not open a connection to ${target}${via} within ${timeoutMs} ms`)), timeoutMs);
    const onAbort = () => reject(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    stop = () => (clearTimeout(timer), signal?.removeEventListener("abort", onAbort));
  });
  const work = establish({ ...options, host }, target, (socket) => opened.push(socket));
  work.catch(() => {}); // when the deadline wins, the destroyed sockets make `work` reject unobserved
  try {
    return await Promise.race([work, deadline]);
  } catch (err) {
    for (const socket of opened) socket.destroy();
    throw err;
  } finally {
    stop();
  }
}

async function establish(options: TunnelOptions, target: string, track: (socket: net.Socket) => void): Promise<net.Socket | tls.TLSSocket> {
  const { host, port, proxy } = options;
  const tlsOptions = options.tls === true ? {} : options.tls || undefined;
  if (!proxy) {
    const lookup = options.allowPrivateNetworks ? options.lookup : guardedLookup(options.lookup);
    const connectOptions = { host, port, ...(lookup ? { lookup } : {}) };
    if (!tlsOptions) return connected(tracked(net.connect(connectOptions), track), "connect", target);
    return connected(tracked(tls.connect({ ...tlsOptions, ...connectOptions, ...servername(host, tlsOptions) }), track), "secureConnect", target);
  }
  const socket = tracked(net.connect({ host: proxy.host, port: proxy.port }), track);
  await connected(
    socket,
    "connect",
    target,
    (err) => new EgressError("proxy_unreachable", `could not reach the egress proxy at ${formatTarget(proxy.host, proxy.port)} (${err.code ?? err.message})`, { cause: err }),
  );
  const status = await sendConnect(socket, target, proxy.authorization);
  if (status < 200 || status > 299) throw proxyRefusal(status, target, proxy.authorization !== undefined);
  if (!tlsOptions) return watchPlainTunnel(socket, target);
  // Selu's proxy answers 200 before it dials and writes a failed dial as "HTTP/1.1 502" into the tunnel:
  // TLS would call that a protocol error, so the tunnel's first bytes are checked before TLS reads them.
  const sniffed = sniffProxyFailure(socket, target);
  return connected(tracked(tls.connect({ ...tlsOptions, socket: sniffed as net.Socket, host, ...servername(host, tlsOptions) }), track), "secureConnect", target);
}

/** Resolves once `event` fires; rejects on 'error' (worded by `explain`) or on a close before it. */
function connected<S extends net.Socket>(
  socket: S,
  event: "connect" | "secureConnect",
  target: string,
  explain: (err: NodeJS.ErrnoException) => Error = (err) => explainSocketError(err, target, event),
): Promise<S> {
  return new Promise((resolve, reject) => {
    const cleanup = () => (socket.off(event, onReady), socket.off("error", onError), socket.off("close", onClose));
    const onReady = () => (cleanup(), resolve(socket));
    const onError = (err: NodeJS.ErrnoException) => (cleanup(), reject(explain(err)));
    const onClose = () => (cleanup(), reject(new EgressError("network", `the connection to ${target} closed while opening`)));
    socket.once(event, onReady);
    socket.once("error", onError);
    socket.once("close", onClose);
  });
}

function explainSocketError(err: NodeJS.ErrnoException, target: string, event: "connect" | "secureConnect"): Error {
  if (err instanceof EgressError) return err; // from the guarded lookup
  // During a handshake, anything but an errno (ECONNRESET...) is a certificate or protocol failure.
  if (event === "secureConnect" && (err.code === undefined || !/^E[A-Z]+$/.test(err.code))) {
    return new EgressError("tls", `the TLS handshake with ${target} failed: ${err.message}`, { cause: err });
  }
  return new EgressError("network", `could not connect to ${target} (${err.code ?? err.message})`, { cause: err });
}

function tracked<S extends net.Socket>(socket: S, track: (socket: net.Socket) => void): S {
  track(socket);
  return socket;
}

// SNI carries names only; for an IP target, certificate checks use `host` against the IP entries.
function servername(host: string, tlsOptions: tls.ConnectionOptions): { servername?: string } {
  if (tlsOptions.servername !== undefined) return { servername: tlsOptions.servername };
  return isIP(host) ? {} : { servername: host };
}

const HOSTNAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,251}[A-Za-z0-9_.])?$/;
const IPV6_CHARS = /^[0-9A-Fa-f:.]+$/;

/** The host without IPv6 brackets, once it is known to be a name or an IP literal and the port valid. */
function checkTarget(host: string, port: number): string {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  // The host goes into the CONNECT request line: anything but a name or an IP could inject into it.
  if (!HOSTNAME.test(bare) && !(IPV6_CHARS.test(bare) && isIPv6(bare))) {
    throw new EgressError("invalid_request", `${JSON.stringify(host.slice(0, 60))} is not a host name or IP address`);
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new EgressError("invalid_request", `${String(port)} is not a TCP port (1-65535)`);
  }
  return bare;
}
