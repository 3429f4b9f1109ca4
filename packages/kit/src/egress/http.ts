import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import { refuseInternalName } from "./address-guard.js";
import { createDispatcher } from "./dispatcher.js";
import { EgressError } from "./errors.js";
import { translateFailure, type FailureContext } from "./failure.js";
import type { HttpClient, HttpClientOptions, HttpRequestInit, HttpResponse, JsonRequestInit } from "./http-types.js";
import { readCappedBody } from "./read-body.js";
import { checkHeaders, checkMethod, checkUrl } from "./request-checks.js";

const DEFAULT_USER_AGENT = "selu-capability";

/**
 * Creates the outbound HTTP client a capability uses for every call to the internet. It routes through
 * Selu's egress proxy when one is configured (Node's fetch ignores `HTTPS_PROXY`), bounds every request
 * (connect, head and body timeouts; a response size cap enforced while reading), refuses header injection,
 * and, without a proxy, refuses internal addresses on the address each connection actually uses, so a
 * URL from the model can't reach internal services. Errors are {@link EgressError}s worded for the user.
 *
 * @example
 * const http = createHttpClient({
 *   proxy: proxyFromEnv(process.env),
 *   timeouts: { connectMs: 5_000, headersMs: 15_000, bodyMs: 30_000 },
 *   maxResponseBytes: 2 * 1024 * 1024,
 * });
 * const data = await http.fetchJson("https://api.search.brave.com/res/v1/web/search?q=selu", {
 *   headers: { "x-subscription-token": ctx.credentials.BRAVE_API_KEY },
 *   signal: ctx.signal,
 * });
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  checkOptions(options);
  const dispatcher = createDispatcher(options);
  const proxied = options.proxy !== undefined;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;

  async function request(input: string | URL, init: HttpRequestInit = {}): Promise<HttpResponse> {
    const url = checkUrl(input, proxied);
    if (!options.allowPrivateNetworks) refuseInternalName(url.hostname);
    const headers = { "user-agent": userAgent, ...checkHeaders(init.headers ?? {}) };
    const method = checkMethod(init.method ?? "GET");
    init.signal?.throwIfAborted();
    const ctx: FailureContext = {
      host: url.host,
      proxied,
      timeouts: options.timeouts,
      signal: init.signal,
    };
    try {
      const response = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers,
        body: init.body ?? null,
        signal: init.signal ?? null,
      });
      const body = await readCappedBody(response.body, {
        maxBytes: options.maxResponseBytes,
        totalMs: options.timeouts.bodyMs,
        host: url.host,
        declaredLength: response.headers["content-length"],
      });
      return { status: response.statusCode, headers: definedHeaders(response.headers), body };
    } catch (err) {
      throw translateFailure(err, ctx);
    }
  }

  async function fetchJson<T>(input: string | URL, init: JsonRequestInit = {}): Promise<T> {
    const { json, headers, ...rest } = init;
    const defaults: Record<string, string> = { accept: "application/json" };
    if (json !== undefined) defaults["content-type"] = "application/json";
    const response = await request(input, {
      ...rest,
      headers: { ...defaults, ...lowercased(headers ?? {}) },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const host = new URL(input).host;
    if (response.status < 200 || response.status > 299) {
      throw new EgressError("http_status", `${host} answered HTTP ${response.status}`, { response });
    }
    try {
      return JSON.parse(response.body.toString("utf8")) as T;
    } catch (err) {
      const type = response.headers["content-type"];
      const what = typeof type === "string" ? ` (${type.split(";")[0]})` : "";
      throw new EgressError("invalid_response", `${host} answered something that is not JSON${what}`, { cause: err, response });
    }
  }

  return { request, fetchJson, close: () => dispatcher.close() };
}

/** Refuses limits that would silently disable a bound (0, NaN, Infinity, negative). */
function checkOptions(options: HttpClientOptions): void {
  const bounds: [string, number][] = [
    ["timeouts.connectMs", options.timeouts.connectMs],
    ["timeouts.headersMs", options.timeouts.headersMs],
    ["timeouts.bodyMs", options.timeouts.bodyMs],
    ["maxResponseBytes", options.maxResponseBytes],
  ];
  for (const [name, value] of bounds) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`createHttpClient: ${name} must be a positive integer, got ${String(value)}`);
  }
}

function definedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = value;
  return out;
}

function lowercased(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
