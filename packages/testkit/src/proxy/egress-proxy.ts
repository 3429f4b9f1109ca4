import { randomBytes, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { isAllowedByPolicy, parseHostPort, type HostPort, type NetworkPolicy } from "./host-policy.js";
import { PROXY_USER, proxyToken } from "./proxy-auth.js";
import { answerAndClose } from "./raw-response.js";
import { format, spliceTunnel } from "./splice.js";

/**
 * What the proxy made of one attempt: `allowed` / `mapped` (tunnel granted, to the real name or to its
 * local stand-in), `denied` (policy or a user's deny rule, 403), `forbidden` (a token that is not the
 * capability's, 403), `unauthenticated` (no or unparsable Proxy-Authorization, 407), `unsupported`
 * (plain-http forwarding, 501), `invalid` (malformed CONNECT target, 400).
 */
export type EgressDecision = "allowed" | "mapped" | "denied" | "forbidden" | "unauthenticated" | "unsupported" | "invalid";

/** One logged attempt, in arrival order; `status` is what the client was answered. */
export interface EgressAttempt {
  at: Date;
  capability: string;
  /** `CONNECT`, or the method of a plain-http forwarding attempt. */
  method: string;
  /** The target as the client wrote it (CONNECT authority or absolute URL). */
  target: string;
  /** Lowercased target host, IPv6 without brackets; "" when the target didn't parse. */
  host: string;
  /** Target port; 0 when the target didn't parse. */
  port: number;
  decision: EgressDecision;
  /** The status line the client read first (200 for every granted tunnel, even one whose dial then failed). */
  status: number;
  /** The local `host:port` dialed instead of the target, for `mapped`. */
  mappedTo?: string;
  /**
   * Why a granted tunnel's dial failed (refused, not dialable by the test proxy): the client read
   * `HTTP/1.1 502 Bad Gateway` inside the tunnel, after the 200.
   */
  error?: string;
}

/** Options of {@link startEgressProxy}. */
export interface EgressProxyOptions {
  /** The capability's `network` section. */
  policy: NetworkPolicy;
  /** The per-capability token (proxy password). Default: 32 random hex characters. */
  token?: string;
  /** The capability id recorded in each attempt. Default "test-capability". */
  capability?: string;
  /** Allowlisted public names and their local stand-ins: `{"api.search.brave.com:443": "127.0.0.1:4443"}`. */
  map?: Record<string, string>;
}

/** A running proxy double; `close()` it in `afterAll`. */
export interface EgressProxy {
  /** The proxy URL exactly as Selu hands it to a container: `http://selu:<token>@127.0.0.1:<port>`. */
  readonly url: string;
  readonly token: string;
  readonly host: string;
  readonly port: number;
  /** The four variables Selu sets, all equal to {@link url}. */
  readonly env: Readonly<Record<"HTTP_PROXY" | "HTTPS_PROXY" | "http_proxy" | "https_proxy", string>>;
  /** Every attempt so far, in arrival order (a live array); a granted tunnel whose dial fails gets its `error` later. */
  readonly attempts: readonly EgressAttempt[];
  /** Tunnels currently open. */
  readonly openTunnels: number;
  /** Adds or replaces a mapping from an allowlisted `host:port` to a local `host:port`. */
  map(from: string, to: string): void;
  /** Stops listening and destroys every open connection and tunnel. */
  close(): Promise<void>;
}

/**
 * Starts an egress proxy double on 127.0.0.1 that answers as Selu's does: CONNECT only; 407 (with a Basic
 * challenge) when Proxy-Authorization is missing or unparsable; 403 for a token that is not the
 * capability's (the user name is not checked) and for a target the policy (or a user's deny rule) denies;
 * otherwise `200` at once, *before* dialling, with no dial timeout, and a failed dial written inside the
 * tunnel as `HTTP/1.1 502 Bad Gateway`. Every attempt is logged. Mapped names let code under test use
 * production hostnames (and TLS certificates for them from a test CA) while every byte stays on loopback.
 * Allowed targets that are neither mapped nor a loopback address fail like an unreachable host (502 inside
 * the tunnel) rather than being dialed: tests never reach out.
 *
 * @example
 * const proxy = await startEgressProxy({ policy: { mode: "allowlist", hosts: ["api.search.brave.com:443"] } });
 * proxy.map("api.search.brave.com:443", `127.0.0.1:${httpsPort}`);
 * const client = createHttpClient({ proxy: proxyFromEnv(proxy.env), ... });
 */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const token = options.token ?? randomBytes(16).toString("hex");
  const capability = options.capability ?? "test-capability";
  const mappings = new Map<string, HostPort>();
  const attempts: EgressAttempt[] = [];
  const sockets = new Set<Duplex>();
  let openTunnels = 0;

  const addMapping = (from: string, to: string) => {
    const source = parseHostPort(from);
    const local = parseHostPort(to);
    if (!source || !local) throw new Error(`invalid proxy mapping ${from} -> ${to}: both sides need host:port`);
    mappings.set(format(source), local);
  };
  for (const [from, to] of Object.entries(options.map ?? {})) addMapping(from, to);

  const record = (entry: Omit<EgressAttempt, "capability">) => attempts.push({ capability, ...entry });
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };

  const server = http.createServer((req, res) => {
    // Selu's proxy can't forward plain http; code must use https so the request goes through CONNECT.
    record({ at: new Date(), method: req.method ?? "", target: req.url ?? "", host: "", port: 0, decision: "unsupported", status: 501 });
    res.writeHead(501, { "content-type": "text/plain; charset=utf-8", connection: "close" });
    res.end("plain-http forwarding is not supported by the egress proxy: use https (CONNECT)\n");
  });
  server.on("connection", track);
  server.on("clientError", (_err, socket) => socket.destroy());
  server.on("connect", (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    const authority = req.url ?? "";
    const target = parseHostPort(authority);
    const base = { at: new Date(), method: "CONNECT", target: authority, host: target?.host ?? "", port: target?.port ?? 0 };
    client.on("error", () => client.destroy());
    const given = proxyToken(req.headers["proxy-authorization"]);
    if (given === undefined) {
      record({ ...base, decision: "unauthenticated", status: 407 });
      return answerAndClose(client, 407, "", { "Proxy-Authenticate": 'Basic realm="selu-egress"' });
    }
    // Selu finds no policy for an unknown token and denies, as for a host outside the policy.
    if (!sameToken(given, token)) {
      record({ ...base, decision: "forbidden", status: 403 });
      return answerAndClose(client, 403, "");
    }
    if (!target) {
      record({ ...base, decision: "invalid", status: 400 });
      return answerAndClose(client, 400, "CONNECT needs a host:port target\n");
    }
    if (!isAllowedByPolicy(options.policy, target)) {
      record({ ...base, decision: "denied", status: 403 });
      return answerAndClose(client, 403, "");
    }
    const mapped = mappings.get(format(target));
    const decision = mapped ? "mapped" : "allowed";
    const dial = mapped ?? (isLoopback(target.host) ? target : { fail: `not dialed: the test proxy only reaches loopback addresses and mapped names; map ${format(target)} to a local server` });
    // Recorded at once, in arrival order: the 200 goes out before the dial; a failed dial adds its error.
    const attempt: EgressAttempt = { capability, ...base, decision, status: 200, ...(mapped ? { mappedTo: format(mapped) } : {}) };
    attempts.push(attempt);
    void spliceTunnel(client, head, dial, track).then((outcome) => {
      if (!outcome.connected) attempt.error = outcome.error;
      if (!outcome.connected || client.destroyed) return;
      openTunnels += 1;
      client.once("close", () => (openTunnels -= 1));
    });
  });

  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { address: host, port } = server.address() as AddressInfo;
  const url = `http://${PROXY_USER}:${encodeURIComponent(token)}@${host}:${port}`;

  return {
    url,
    token,
    host,
    port,
    env: Object.freeze({ HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url }),
    attempts,
    get openTunnels() {
      return openTunnels;
    },
    map: addMapping,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || (net.isIPv4(host) && host.startsWith("127."));
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
