/** The egress proxy a capability must use, parsed once at the entrypoint and passed down. */
export interface ProxyConfig {
  /** The proxy's origin without credentials, safe to log: `http://10.1.2.3:8888`. */
  url: string;
  /** Proxy host name or IP (IPv6 without brackets). */
  host: string;
  port: number;
  /** `Proxy-Authorization` value, `Basic base64(user:password)`, from the URL's percent-decoded credentials. */
  authorization?: string;
}

/** The environment variables Selu sets, in the order they are read: https first, lowercase first. */
export const PROXY_VARIABLES = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"] as const;

/**
 * Reads the egress proxy from an environment object (pass `process.env` at the entrypoint). Selu sets all
 * four `HTTP(S)_PROXY` variables to `http://selu:<token>@<host>:8888`; `https_proxy`/`HTTPS_PROXY` win over
 * the http ones because all egress must be https through CONNECT (Selu's proxy can't forward plain http,
 * and there is no `NO_PROXY`). Empty variables count as unset. Returns undefined when none is set
 * (development outside Selu: connect directly).
 *
 * @throws {Error} naming the variable (never its value, which holds the token) when it isn't a usable URL.
 * @example
 * const proxy = proxyFromEnv(process.env);
 * const http = createHttpClient({ proxy, timeouts, maxResponseBytes: 1 << 20 });
 */
export function proxyFromEnv(env: Readonly<Record<string, string | undefined>>): ProxyConfig | undefined {
  for (const name of PROXY_VARIABLES) {
    const value = env[name]?.trim();
    if (value) return parseProxyUrl(value, name);
  }
  return undefined;
}

/**
 * Parses one proxy URL (`http://user:password@host:port`, port 80 when absent).
 * @param source what to call the value in errors, e.g. the variable it came from.
 * @throws {Error} for anything but an http:// URL with a host and nothing after the port.
 */
export function parseProxyUrl(value: string, source = "the proxy URL"): ProxyConfig {
  const expected = "expected http://user:password@host:port";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${source} is not a valid URL (${expected})`);
  }
  if (url.protocol !== "http:") {
    // Only the scheme is echoed: the rest of the value may hold the token.
    const scheme = /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? url.protocol : "an unknown scheme";
    throw new Error(`${source} uses ${scheme}; only http:// proxies (HTTP CONNECT) are supported (${expected})`);
  }
  if (!url.hostname) throw new Error(`${source} has no host (${expected})`);
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash) {
    throw new Error(`${source} must not have a path, query or fragment (${expected})`);
  }
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === "" ? 80 : Number(url.port);
  const config: ProxyConfig = { url: `http://${url.hostname}:${port}`, host, port };
  if (url.username || url.password) config.authorization = basicAuthorization(url, source);
  return config;
}

function basicAuthorization(url: URL, source: string): string {
  let user: string;
  let password: string;
  try {
    user = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    throw new Error(`${source} has credentials that are not valid percent-encoding`);
  }
  return `Basic ${Buffer.from(`${user}:${password}`, "utf8").toString("base64")}`;
}
