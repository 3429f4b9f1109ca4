import { isIPv6 } from "node:net";

/** `network.mode` of a manifest: no egress, egress to `hosts` only, or egress anywhere. */
export type NetworkMode = "none" | "allowlist" | "any";

/** A capability's network policy, as its manifest declares it (`network: {mode, hosts}`). */
export interface NetworkPolicy {
  mode: NetworkMode;
  /** Allowlist entries: `host:port`, `host` (any port), `*.suffix[:port]`. */
  hosts: readonly string[];
  /**
   * A user's per-agent deny rules (exclusive containers only in Selu): entries in the same syntax that
   * win over everything, so a 403 can come from them and not only from the manifest.
   */
  deny?: readonly string[];
}

/** A CONNECT target: `host` lowercased, IPv6 without its brackets. */
export interface HostPort {
  host: string;
  port: number;
}

// One DNS label (underscores allowed, as in service names), then the dotted rest; a final dot is kept.
const HOSTNAME = /^(?=.{1,253}\.?$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/;
const PORT = /^\d{1,5}$/;
const IPV6_CHARS = /^[0-9a-f:.]+$/;

/**
 * Parses the authority of a CONNECT request (`host:port`, `[v6]:port`; RFC 9110 §9.3.6 requires the port).
 * Returns undefined for anything else (no port, bad characters, `user@host`, a zone id, port 0): the
 * proxy answers 400 instead of guessing what a malformed target meant.
 */
export function parseHostPort(authority: string): HostPort | undefined {
  const split = splitAuthority(authority);
  if (!split || split.port === undefined) return undefined;
  const host = split.host.toLowerCase();
  // isIPv6 accepts zone ids ("fe80::1%eth0"), which name a local interface: not a remote target.
  const valid = split.bracketed ? IPV6_CHARS.test(host) && isIPv6(host) : HOSTNAME.test(host);
  return valid ? { host, port: split.port } : undefined;
}

/**
 * Decides whether a capability with `policy` may open a tunnel to `target`, with Selu's rules: a `deny`
 * entry that matches always denies; then `none` denies all, `any` allows all, `allowlist` allows what one
 * of `hosts` matches ({@link matchesHostPattern}).
 */
export function isAllowedByPolicy(policy: NetworkPolicy, target: HostPort): boolean {
  if ((policy.deny ?? []).some((pattern) => matchesHostPattern(pattern, target))) return false;
  if (policy.mode === "any") return true;
  if (policy.mode === "none") return false;
  return policy.hosts.some((pattern) => matchesHostPattern(pattern, target));
}

/**
 * Selu's allowlist matching (`host_entry_matches`), as text, lowercased: `*.suffix` matches a host ending in
 * `.suffix` on any port and `*.suffix:port` the same on that port (never the bare suffix); an entry with a
 * `:` must equal `host:port` exactly; any other entry must equal the host. So an IPv6 literal (the host is
 * compared without brackets, the entry with them) and a zero-padded port (`:0443`) never match, and a lone
 * `*` matches nothing.
 */
export function matchesHostPattern(pattern: string, target: HostPort): boolean {
  const entry = pattern.toLowerCase();
  const host = target.host.toLowerCase();
  if (entry.startsWith("*.")) {
    const rest = entry.slice(2);
    if (rest.includes(":")) return host.endsWith(`.${rest.split(":")[0]}`) && entry.endsWith(`:${target.port}`);
    return host.endsWith(`.${rest}`);
  }
  if (entry.includes(":")) return entry === `${host}:${target.port}`;
  return entry === host;
}

interface SplitAuthority {
  host: string;
  port: number | undefined;
  bracketed: boolean;
}

function splitAuthority(text: string): SplitAuthority | undefined {
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    if (close < 0) return undefined;
    const rest = text.slice(close + 1);
    if (rest !== "" && !rest.startsWith(":")) return undefined;
    const port = rest === "" ? undefined : parsePort(rest.slice(1));
    if (port === null) return undefined;
    return { host: text.slice(1, close), port, bracketed: true };
  }
  const colons = text.split(":").length - 1;
  // A bare IPv6 literal has several colons and can carry no port (it would be ambiguous).
  if (colons > 1) return { host: text, port: undefined, bracketed: true };
  if (colons === 0) return text === "" ? undefined : { host: text, port: undefined, bracketed: false };
  const at = text.lastIndexOf(":");
  const port = parsePort(text.slice(at + 1));
  if (port === null || at === 0) return undefined;
  return { host: text.slice(0, at), port, bracketed: false };
}

/** A port number, or null when the text is not one (empty, signs, spaces, 0, over 65535). */
function parsePort(text: string): number | null {
  if (!PORT.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : null;
}
