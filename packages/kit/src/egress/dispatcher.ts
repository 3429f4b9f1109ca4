import { Agent, buildConnector, type Dispatcher } from "undici";
import { guardedLookup } from "./address-guard.js";
import type { HttpClientOptions } from "./http-types.js";
import { openTunnel } from "./tunnel.js";

/**
 * The undici dispatcher for a client's options: an Agent (pooling, keep-alive, head and body timeouts)
 * whose connections are opened
 * - through the proxy by {@link openTunnel}: HTTP CONNECT with `Proxy-Authorization`, then TLS to the target.
 *   Not undici's ProxyAgent: in undici 7 it reconnects in a tight loop, ignoring the request's signal, when
 *   the proxy hangs up before answering the CONNECT (nodejs/undici#3897, fixed in 8 only);
 * - directly otherwise, resolving names through the SSRF-guarded lookup unless private networks are allowed.
 */
export function createDispatcher(options: HttpClientOptions): Dispatcher {
  const { connectMs, headersMs, bodyMs } = options.timeouts;
  const ca = options.ca === undefined ? {} : { ca: options.ca as string | Buffer | (string | Buffer)[] };
  const timeouts = { headersTimeout: headersMs, bodyTimeout: bodyMs };
  const { proxy } = options;
  if (proxy) {
    const connect: buildConnector.connector = (target, callback) => {
      const https = target.protocol === "https:";
      openTunnel({
        proxy,
        host: target.hostname,
        port: Number(target.port) || (https ? 443 : 80),
        tls: https ? { ...ca, ALPNProtocols: ["http/1.1"] } : false,
        timeoutMs: connectMs,
        allowPrivateNetworks: options.allowPrivateNetworks ?? false,
      }).then(
        (socket) => callback(null, socket),
        (err: Error) => callback(err, null),
      );
    };
    return new Agent({ ...timeouts, connect });
  }
  const lookup = options.allowPrivateNetworks ? options.lookup : guardedLookup(options.lookup);
  return new Agent({ ...timeouts, connect: buildConnector({ ...ca, timeout: connectMs, ...(lookup ? { lookup } : {}) }) });
}
