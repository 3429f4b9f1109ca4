// The public API of @selu-catalogue/kit/egress: everything exported here is supported; nothing else is.
// Outbound HTTP through Selu's egress proxy, CONNECT tunnels for other protocols, and the SSRF guard.
export { blockedAddressKind } from "./blocked-address.js";
export { EgressError } from "./errors.js";
export { createHttpClient } from "./http.js";
export { parseProxyUrl, PROXY_VARIABLES, proxyFromEnv } from "./proxy-config.js";
export { openTunnel } from "./tunnel.js";

export type { BlockedAddressKind } from "./blocked-address.js";
export type { EgressErrorCode, EgressErrorOptions } from "./errors.js";
export type {
  HttpClient,
  HttpClientOptions,
  HttpRequestInit,
  HttpResponse,
  HttpTimeouts,
  JsonRequestInit,
} from "./http-types.js";
export type { ProxyConfig } from "./proxy-config.js";
export type { TunnelOptions } from "./tunnel.js";
