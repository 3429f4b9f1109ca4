import type net from "node:net";
import type tls from "node:tls";
import type { HttpClient, HttpClientOptions } from "./http-types.js";
import type { ProxyConfig } from "./proxy-config.js";
import type { Limits } from "../limits.js";

/** Egress settings of a served capability, read once at the entrypoint. */
export interface EgressSettings {
  /** Selu's egress proxy (from HTTPS_PROXY & co.); absent means direct connections. */
  proxy?: ProxyConfig | undefined;
  /** Extra trusted CA certificates (tests); the system roots stay trusted. */
  ca?: string | Buffer | undefined;
  /** Lets outbound calls reach internal addresses; off unless a capability is meant for a LAN service. */
  allowPrivateNetworks?: boolean;
}

/** Options of `ctx.openTunnel`. */
export interface TunnelRequest {
  tls?: boolean | tls.ConnectionOptions;
  /** Default: the capability's connect timeout. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Outbound connections of a served capability, shared by its tools (`ctx.http`, `ctx.openTunnel`). The
 * HTTP client is built on first use, and its module (undici) is loaded only then: capabilities that never
 * go out don't pay its memory.
 */
export class Egress {
  readonly #settings: EgressSettings;
  readonly #limits: Readonly<Limits>;
  #client: Promise<HttpClient> | undefined;
  readonly http: HttpClient;

  constructor(settings: EgressSettings, limits: Readonly<Limits>) {
    this.#settings = settings;
    this.#limits = limits;
    const client = () => (this.#client ??= this.#createClient());
    this.http = {
      request: async (url, init) => (await client()).request(url, init),
      fetchJson: async (url, init) => (await client()).fetchJson(url, init),
      close: async () => {
        if (this.#client) await (await this.#client).close();
      },
    };
  }

  /** The proxy's origin without credentials, for logs. */
  get proxyUrl(): string | undefined {
    return this.#settings.proxy?.url;
  }

  /** A TCP (or TLS) connection to host:port through the egress proxy, for SMTP, IMAP and the like. */
  async openTunnel(host: string, port: number, request: TunnelRequest = {}): Promise<net.Socket | tls.TLSSocket> {
    const { openTunnel } = await import("./tunnel.js");
    const tlsOption = request.tls === true && this.#settings.ca ? { ca: this.#settings.ca } : request.tls;
    return openTunnel({
      proxy: this.#settings.proxy,
      host,
      port,
      ...(tlsOption !== undefined ? { tls: tlsOption } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
      timeoutMs: request.timeoutMs ?? this.#limits.httpTimeouts.connectMs,
      allowPrivateNetworks: this.#settings.allowPrivateNetworks ?? false,
    });
  }

  async #createClient(): Promise<HttpClient> {
    const { createHttpClient } = await import("./http.js");
    const options: HttpClientOptions = {
      proxy: this.#settings.proxy,
      timeouts: this.#limits.httpTimeouts,
      maxResponseBytes: this.#limits.httpMaxResponseBytes,
      allowPrivateNetworks: this.#settings.allowPrivateNetworks ?? false,
      ...(this.#settings.ca ? { ca: this.#settings.ca } : {}),
    };
    return createHttpClient(options);
  }
}
