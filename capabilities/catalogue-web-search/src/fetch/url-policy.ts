import { ToolError } from "@selu-catalogue/kit";
import { blockedAddressKind } from "@selu-catalogue/kit/egress";
import { isIP } from "node:net";

/** A URL fetch_page may request, and whether it was given as http:// and is fetched over https. */
export interface PageUrl {
  url: URL;
  upgraded: boolean;
}

// Suffixes reserved for private use or for one host's own names (RFC 6761, RFC 6762, RFC 8375, ICANN's
// .internal of 2024): no public page lives there, but an internal resolver (Selu's proxy's) answers them.
const PRIVATE_SUFFIXES = ["localhost", "local", "internal", "localdomain", "home.arpa", "lan", "intranet", "corp", "home", "test", "invalid"];

/**
 * Vets a URL the model gave (or a redirect named) before anything is sent: http or https only, no
 * credentials, and a host that can be on the public internet. IP literals in any spelling are judged by
 * the kit's guard (the URL parser has already turned decimal, octal, hex and short IPv4 forms, and
 * trailing dots, into dotted form); names with one label (`selu`, `redis`: sibling containers) or under
 * a private-use suffix are refused, because through Selu's proxy it is the proxy that resolves them.
 * `http://` is fetched as `https://`: Selu's egress proxy only tunnels CONNECT (contract section 3).
 * @throws {ToolError} naming `field`.
 */
export function checkPageUrl(raw: string | URL, field: string, allowPrivate: boolean): PageUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolError(`${field}: is not an absolute URL; give one like https://example.org/page`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    const scheme = /^[a-z][a-z0-9+.-]{0,20}:$/i.test(url.protocol) ? url.protocol : "this scheme";
    throw new ToolError(`${field}: only http and https pages can be fetched, not ${scheme} URLs`);
  }
  if (url.username || url.password) throw new ToolError(`${field}: URLs with a user name or password are not fetched`);
  const upgraded = url.protocol === "http:";
  if (upgraded) {
    url = new URL(url.href.replace(/^http:/i, "https:"));
    // An explicit :80 would now mean TLS on port 80; the https default is what the site serves.
    if (url.port === "80") url.port = "";
  }
  url.hash = "";
  if (!allowPrivate) refusePrivateHost(url.hostname, field);
  return { url, upgraded };
}

function refusePrivateHost(hostname: string, field: string): void {
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  if (isIP(bare)) {
    const kind = blockedAddressKind(bare);
    if (kind) throw refused(field, bare, `a ${kind} address, not a public one`);
    return;
  }
  const name = bare.toLowerCase().replace(/\.+$/, "");
  if (!name.includes(".")) throw refused(field, bare, "a single-label name, which only an internal resolver answers");
  const suffix = PRIVATE_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`));
  if (suffix) throw refused(field, bare, `under .${suffix}, a suffix for private or local names`);
}

function refused(field: string, host: string, why: string): ToolError {
  return new ToolError(`${field}: refusing to fetch ${host}: it is ${why} (SSRF guard; an administrator can set FETCH_ALLOW_PRIVATE_NETWORKS=true to allow internal pages)`);
}
