import { isIPv6 } from "node:net";

// One DNS label: letters, digits, hyphens inside, underscores allowed (service names), at most 63.
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i;
const EXAMPLE = "expected host, host:port, *.suffix or *.suffix:port (e.g. api.example.com:443)";

/**
 * Checks one `network.hosts` entry against the forms Selu's egress proxy matches: `host:port` exactly,
 * `host` on any port, `*.suffix[:port]` for subdomains of suffix (not suffix itself), `[v6]:port`.
 * Anything else matches nothing, so the capability would be denied at run time with a bare 403; this says
 * why up front. Returns what's wrong, or undefined for a valid entry.
 */
export function checkHostEntry(entry: string): string | undefined {
  if (entry.trim() === "") return `is empty: ${EXAMPLE}`;
  if (/\s/.test(entry)) return `"${entry}" contains spaces: ${EXAMPLE}`;
  if (entry === "*" || entry === "*:443") return `"${entry}" is not an allowlist entry: use network mode any to allow every host`;
  if (entry.includes("://")) return `"${entry}" has a URL scheme: write only the host and port, e.g. ${withoutScheme(entry)}`;
  if (entry.includes("/")) return `"${entry}" has a path: the proxy sees hosts and ports only, ${EXAMPLE}`;
  if (entry.includes("@")) return `"${entry}" has user info: ${EXAMPLE}`;
  const split = splitEntry(entry);
  if (typeof split === "string") return split;
  if (split.port !== undefined) {
    const portProblem = checkPort(split.port);
    if (portProblem) return `"${entry}": ${portProblem}`;
  }
  if (split.bracketed) return isIPv6(split.host) && !split.host.includes("%") ? undefined : `"${entry}" is not a valid [IPv6]:port`;
  const hostProblem = checkHostPattern(split.host);
  return hostProblem ? `"${entry}": ${hostProblem}` : undefined;
}

function checkHostPattern(host: string): string | undefined {
  // The proxy compares names as written: a trailing dot never matches the name a client asks for.
  if (host.endsWith(".")) return `the trailing dot never matches: write ${host.slice(0, -1)}`;
  const wildcard = host.startsWith("*.");
  const name = wildcard ? host.slice(2) : host;
  if (name.includes("*")) return "a wildcard is only allowed as a leading *. (e.g. *.example.com)";
  if (name.length > 253) return "the host name is longer than 253 characters";
  const labels = name.split(".");
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad === "") return "has an empty label (a leading dot or two dots in a row)";
  if (bad !== undefined) return `"${bad}" is not a valid host name label (letters, digits, hyphens; at most 63)`;
  if (wildcard && labels.length < 2) return `*.${name} would allow every host under a top-level domain: name the domain (e.g. *.example.com)`;
  return undefined;
}

interface SplitEntry {
  host: string;
  port: string | undefined;
  bracketed: boolean;
}

function splitEntry(entry: string): SplitEntry | string {
  if (entry.startsWith("[")) {
    const close = entry.indexOf("]");
    const rest = close < 0 ? "" : entry.slice(close + 1);
    if (close < 0 || (rest !== "" && !rest.startsWith(":"))) return `"${entry}" is not a valid [IPv6]:port`;
    return { host: entry.slice(1, close), port: rest === "" ? undefined : rest.slice(1), bracketed: true };
  }
  const colons = entry.split(":").length - 1;
  if (colons > 1) return `"${entry}" looks like an IPv6 address: write it in brackets, e.g. [2001:db8::1]:443`;
  const [host = "", port] = entry.split(":");
  return { host, port, bracketed: false };
}

function checkPort(port: string): string | undefined {
  if (!/^\d{1,5}$/.test(port)) return `port "${port}" is not a number`;
  const n = Number(port);
  return n >= 1 && n <= 65535 ? undefined : `port ${n} is outside 1-65535`;
}

function withoutScheme(entry: string): string {
  const url = URL.parse(entry);
  if (!url?.hostname) return "api.example.com:443";
  const port = url.port || (url.protocol === "https:" ? "443" : url.protocol === "http:" ? "80" : "");
  return port ? `${url.hostname}:${port}` : url.hostname;
}
