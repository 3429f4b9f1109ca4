import { EgressError } from "./errors.js";

/** `host:port` as a CONNECT target and in messages, with brackets around an IPv6 host. */
export function formatTarget(host: string, port: number): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * Turns the status with which Selu's egress proxy refused a CONNECT into an error the user can act on.
 * 403 means the policy denies the host: the manifest's network.hosts lacks it, or a user's network rule
 * for the agent denies it (Selu's proxy also answers 403 to a token it doesn't know). 407 means the proxy
 * URL carries no credentials Selu can read.
 */
export function proxyRefusal(status: number, target: string, hasCredentials: boolean, cause?: unknown): EgressError {
  const options = cause === undefined ? { status } : { status, cause };
  if (status === 407) {
    return new EgressError(
      "proxy_auth",
      hasCredentials
        ? `the egress proxy could not read the credentials of the proxy URL (407) for ${target}; expected http://selu:<token>@host:port in HTTPS_PROXY`
        : `the egress proxy requires credentials (407) for ${target}, and the proxy URL has none (expected http://selu:<token>@host:port)`,
      options,
    );
  }
  if (status === 403) {
    return new EgressError("proxy_refused", `the egress proxy refused ${target} (403): allow it in the manifest's network.hosts, or remove the network rule that denies it for this agent`, options);
  }
  return new EgressError("proxy_refused", `the egress proxy could not open a tunnel to ${target} (${status})`, options);
}
