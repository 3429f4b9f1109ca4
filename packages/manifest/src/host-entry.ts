import { isIPv6 } from "node:net";

// One DNS label: letters, digits, hyphens inside, underscores allowed (service names), at most 63.
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i;
const EXAMPLE = "expected host, host:port, *.suffix or *.suffix:port (e.g. api.example.com:443)";

/**
 * Checks one `network.hosts` entry against the forms Selu's egress proxy matches, as text and
 * case-insensitively: `host:port` exactly, `host` on any port, `*.suffix[:port]` for subdomains of suffix
 * (not suffix itself). Anything else matches nothing (an IPv6 literal, since the proxy compares the host
 * without brackets; a zero-padded port such as `:0443`; a trailing dot), so the capability would be
 * denied at run time with a bare 403; this says why up front. Returns what's wrong, or undefined.
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
  if (split.bracketed) {
    if (!isIPv6(split.host) || split.host.includes("%")) return `"${entry}" is not a valid [IPv6]:port`;
    return `"${entry}" is an IPv6 literal, which Selu's proxy never matches (it compares the host without brackets against the entry as text): allow the host's name instead`;
  }
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
  if (colons > 1) return `"${entry}" looks like an IPv6 address, which Selu's proxy never matches (it compares entries as text): allow the host's name instead`;
  const [host = "", port] = entry.split(":");
  return { host, port, bracketed: false };
}

function checkPort(port: string): string | undefined {
  if (!/^\d{1,5}$/.test(port)) return `port "${port}" is not a number`;
  // The proxy compares `host:port` as text with the port as a number prints: ":0443" never matches.
  if (/^0\d/.test(port)) return `port "${port}" has a leading zero and never matches (Selu compares host:port as text): write ${Number(port)}`;
  const n = Number(port);
  return n >= 1 && n <= 65535 ? undefined : `port ${n} is outside 1-65535`;
}

function withoutScheme(entry: string): string {
  const url = URL.parse(entry);
  if (!url?.hostname) return "api.example.com:443";
  const port = url.port || (url.protocol === "https:" ? "443" : url.protocol === "http:" ? "80" : "");
  return port ? `${url.hostname}:${port}` : url.hostname;
}
