import { lookup as dnsLookup } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { blockedAddressKind, type BlockedAddressKind } from "./blocked-address.js";
import { EgressError } from "./errors.js";

/**
 * Refuses a target named by an internal IP literal (`127.0.0.1`, `[::1]`, `10.0.0.5`; URLs have already
 * turned `2130706433` or `0x7f000001` into dotted form) or a `localhost` name, before any connection or DNS
 * query. Through a proxy this is all the client can check: the proxy resolves names itself, and
 * `localhost` there would be the proxy's own loopback.
 * @throws {EgressError} `blocked_address`.
 */
export function refuseInternalName(host: string): void {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (isIP(bare.replace(/%.*$/, ""))) {
    const kind = blockedAddressKind(bare);
    if (kind) throw blockedError(bare, bare, kind);
    return;
  }
  const name = bare.toLowerCase().replace(/\.+$/, "");
  // RFC 6761: localhost and every name under it resolve to loopback.
  if (name === "localhost" || name.endsWith(".localhost") || LOOPBACK_NAMES.has(name)) throw blockedError(bare, bare, "loopback");
  if (METADATA_NAMES.has(name)) throw blockedError(bare, bare, "link-local");
}

// Loopback names of common /etc/hosts files (Debian, RHEL): through a proxy, its host resolves them.
const LOOPBACK_NAMES = new Set(["localhost.localdomain", "localhost4", "localhost6", "localhost4.localdomain4", "localhost6.localdomain6", "ip6-localhost", "ip6-loopback"]);
// Cloud metadata services by name (they resolve to 169.254.169.254 inside the cloud, also for a proxy there).
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"]);

/**
 * Wraps a `dns.lookup`-compatible function so every address it returns is checked before the socket
 * connects to it. Because the check runs on the very answer the connection uses, a name that resolves
 * to a public address for a pre-check and to 127.0.0.1 for the connection (DNS rebinding) is still caught.
 * One internal address in the answer refuses the whole name (happy eyeballs might pick it).
 */
export function guardedLookup(lookup: LookupFunction = dnsLookup as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family);
      const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
      for (const candidate of addresses) {
        const kind = blockedAddressKind(candidate);
        if (kind) return callback(blockedError(hostname, candidate, kind), address, family);
      }
      callback(null, address, family);
    });
  };
}

const DESCRIPTIONS: Record<BlockedAddressKind, string> = {
  unspecified: "an unspecified",
  loopback: "a loopback",
  private: "a private-network",
  shared: "a shared (carrier-grade NAT)",
  "link-local": "a link-local",
  "unique-local": "a unique-local",
  "site-local": "a site-local",
  multicast: "a multicast",
  reserved: "a reserved",
  "not an IP address": "an unusable",
};

function blockedError(host: string, address: string, kind: BlockedAddressKind): EgressError {
  const target = address === host ? host : `${host} (${address})`;
  return new EgressError(
    "blocked_address",
    `refusing to connect to ${target}: it is ${DESCRIPTIONS[kind]} address, not a public one ` + "(SSRF guard; a capability that must reach internal hosts sets allowPrivateNetworks)",
  );
}
