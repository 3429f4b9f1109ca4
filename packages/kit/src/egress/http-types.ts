import type { LookupFunction } from "node:net";
import type { ProxyConfig } from "./proxy-config.js";

/**
 * Time limits of one request, each in ms. Undici checks the direct connect and head timeouts on a
 * coarse clock, so they may fire up to about a second late; the body total is exact.
 */
export interface HttpTimeouts {
  /** Opening the connection: TCP (to the target, or to the proxy and through its CONNECT) and TLS. */
  connectMs: number;
  /** From sending the request to the end of the response head. */
  headersMs: number;
  /** Reading the whole body once the head arrived (a total, so a trickling server can't stall a tool). */
  bodyMs: number;
}

/** Options of `createHttpClient`; build them once at the entrypoint. */
export interface HttpClientOptions {
  /** Selu's egress proxy (`proxyFromEnv(process.env)`); absent means direct connections. */
  proxy?: ProxyConfig | undefined;
  timeouts: HttpTimeouts;
  /** Largest response body accepted, in bytes; reading stops and the connection closes past it. */
  maxResponseBytes: number;
  /** Sent as User-Agent unless a request sets its own. */
  userAgent?: string;
  /**
   * Lets requests reach loopback, private, link-local and other internal addresses. Off by default: a
   * URL from the model or a user must not reach the container's or the host's internal services (SSRF).
   */
  allowPrivateNetworks?: boolean;
  /** Resolves names for direct connections instead of `dns.lookup` (tests, custom resolvers). */
  lookup?: LookupFunction;
  /** Extra trusted CA certificates (PEM), e.g. a test CA; the system roots stay trusted too. */
  ca?: string | Buffer | readonly (string | Buffer)[];
}

/** One request. */
export interface HttpRequestInit {
  /** Default GET. */
  method?: string;
  headers?: Readonly<Record<string, string>>;
  body?: string | Uint8Array;
  /** Cancels the request and the body read; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** A JSON request: `json` is serialised as the body with `content-type: application/json`. */
export interface JsonRequestInit extends Omit<HttpRequestInit, "body"> {
  json?: unknown;
}

/** A complete response; redirects are returned as they are, never followed. */
export interface HttpResponse {
  status: number;
  /** Lowercased names; repeated headers (set-cookie) as arrays. */
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** An outbound HTTP client bound to one configuration (proxy, limits, SSRF guard). */
export interface HttpClient {
  /**
   * Sends one request and reads the whole body under the size cap.
   * @throws {EgressError} for every failure a user can act on; the signal's reason when aborted.
   */
  request(url: string | URL, init?: HttpRequestInit): Promise<HttpResponse>;
  /**
   * Sends a request that expects JSON back (`accept: application/json`) and parses it. Validate the
   * result with a schema: it is whatever the server sent.
   * @throws {EgressError} `http_status` for a non-2xx answer (the response is on the error), `invalid_response` for non-JSON.
   */
  fetchJson<T = unknown>(url: string | URL, init?: JsonRequestInit): Promise<T>;
  /** Closes pooled connections; in-flight requests finish first. */
  close(): Promise<void>;
}
