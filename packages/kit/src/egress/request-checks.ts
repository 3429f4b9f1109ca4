import { EgressError } from "./errors.js";

// RFC 9110 §5.6.2 token: what a method or a header name may contain.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// CR and LF end a header line (request smuggling, injected headers); NUL is refused by HTTP parsers.
const FORBIDDEN_IN_VALUE = /[\r\n\0]/;

/**
 * Parses and vets a request URL: http: or https: only, no credentials in it (they would end up in logs;
 * send an Authorization header), and https only through the egress proxy (Selu's proxy can't forward
 * plain http). Messages never repeat the URL: its query may hold an API key.
 * @throws {EgressError} `invalid_request`.
 */
export function checkUrl(input: string | URL, proxied: boolean): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new EgressError("invalid_request", "the request URL is not a valid absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    const scheme = /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? url.protocol : "another scheme";
    throw new EgressError("invalid_request", `only http: and https: URLs can be requested, not ${scheme}`);
  }
  if (url.username || url.password) {
    throw new EgressError("invalid_request", `the URL for ${url.hostname} carries credentials; send them in a header instead`);
  }
  if (proxied && url.protocol === "http:") {
    throw new EgressError("invalid_request", `plain http to ${url.host} can't pass Selu's egress proxy (it only tunnels with CONNECT); use https://${url.host}`);
  }
  return url;
}

/** Vets an HTTP method: a token, and not CONNECT (tunnels go through `openTunnel`). */
export function checkMethod(method: string): string {
  if (!TOKEN.test(method) || method.toUpperCase() === "CONNECT") {
    throw new EgressError("invalid_request", `${JSON.stringify(method.slice(0, 20))} is not a method this client sends`);
  }
  return method;
}

/**
 * Vets request headers and returns them with lowercased names (so defaults merge without duplicates).
 * A value with CR, LF or NUL is refused naming the header, never echoing the value (it may be a secret,
 * and it is attacker-shaped when it came from model input). `Proxy-Authorization` is refused: it comes
 * from the proxy configuration and must never reach a target.
 * @throws {EgressError} `invalid_request`.
 */
export function checkHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) {
      throw new EgressError("invalid_request", `the header name ${JSON.stringify(name.slice(0, 40))} is not a valid HTTP token`);
    }
    if (typeof value !== "string") {
      throw new EgressError("invalid_request", `the header ${name} must be a string`);
    }
    if (FORBIDDEN_IN_VALUE.test(value)) {
      throw new EgressError("invalid_request", `the header ${name} contains a line break or NUL character (header injection); refusing to send it`);
    }
    const lower = name.toLowerCase();
    if (lower === "proxy-authorization") {
      throw new EgressError("invalid_request", "Proxy-Authorization is set from the proxy configuration, not per request");
    }
    checked[lower] = value;
  }
  return checked;
}
