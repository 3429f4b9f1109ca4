import { isIPv4, isIPv6 } from "node:net";

/** Why an address is not a public internet address; {@link blockedAddressKind} returns one of these. */
export type BlockedAddressKind = "unspecified" | "loopback" | "private" | "shared" | "link-local" | "unique-local" | "site-local" | "multicast" | "reserved" | "not an IP address";

type Range = readonly [base: number, bits: number, kind: BlockedAddressKind];

// IANA special-purpose IPv4 registry, the entries a server-side request must never reach.
const IPV4_RANGES: readonly Range[] = [
  [ipv4("0.0.0.0"), 8, "unspecified"],
  [ipv4("10.0.0.0"), 8, "private"],
  [ipv4("100.64.0.0"), 10, "shared"],
  [ipv4("127.0.0.0"), 8, "loopback"],
  [ipv4("169.254.0.0"), 16, "link-local"], // cloud metadata services live here
  [ipv4("172.16.0.0"), 12, "private"],
  [ipv4("192.0.0.0"), 24, "reserved"],
  [ipv4("192.0.2.0"), 24, "reserved"],
  [ipv4("192.168.0.0"), 16, "private"],
  [ipv4("198.18.0.0"), 15, "reserved"],
  [ipv4("198.51.100.0"), 24, "reserved"],
  [ipv4("203.0.113.0"), 24, "reserved"],
  [ipv4("224.0.0.0"), 4, "multicast"],
  [ipv4("240.0.0.0"), 4, "reserved"], // includes 255.255.255.255
];

/**
 * Classifies an IP address a connection would go to. Returns undefined for a public unicast address,
 * otherwise what it is: loopback, private (RFC 1918), link-local (169.254/16 with cloud metadata, fe80::/10),
 * unique-local (fc00::/7), multicast, unspecified, shared (CGNAT) or reserved. IPv6 forms that carry an
 * IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by that
 * IPv4 address, so `[::ffff:127.0.0.1]` is loopback. Anything that isn't an IP fails closed.
 * Pure: the SSRF guard runs it on every address a name resolves to.
 */
export function blockedAddressKind(address: string): BlockedAddressKind | undefined {
  if (isIPv4(address)) return classifyIpv4(ipv4(address));
  const bare = address.replace(/%.*$/, ""); // a zone id names an interface, not a different address
  if (isIPv6(bare)) return classifyIpv6(ipv6Groups(bare));
  return "not an IP address";
}

function classifyIpv4(value: number): BlockedAddressKind | undefined {
  for (const [base, bits, kind] of IPV4_RANGES) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if ((value & mask) >>> 0 === base) return kind;
  }
  return undefined;
}

function classifyIpv6(g: readonly number[]): BlockedAddressKind | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = ((g6 << 16) | g7) >>> 0;
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 0) return "unspecified";
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 1) return "loopback";
  if (upperZero && g5 === 0xffff) return classifyIpv4(embedded); // IPv4-mapped
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return classifyIpv4(embedded); // IPv4-translated
  if (upperZero && g5 === 0) return "reserved"; // IPv4-compatible, deprecated
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return classifyIpv4(embedded); // NAT64
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return "private"; // local-use NAT64
  if (g0 === 0x2002) return classifyIpv4(((g1 << 16) | g2) >>> 0); // 6to4
  if (g0 === 0x2001 && g1 === 0x0db8) return "reserved"; // documentation
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return "reserved"; // discard-only
  if ((g0 & 0xfe00) === 0xfc00) return "unique-local";
  if ((g0 & 0xffc0) === 0xfe80) return "link-local";
  if ((g0 & 0xffc0) === 0xfec0) return "site-local";
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  return undefined;
}

function ipv4(dotted: string): number {
  return dotted.split(".").reduce((acc, part) => ((acc << 8) | Number(part)) >>> 0, 0);
}

/** The eight 16-bit groups of a valid IPv6 address (already checked by `isIPv6`). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = ipv4(tail);
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = "", rest] = text.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((h) => parseInt(h, 16)));
  const left = parse(head);
  if (rest === undefined) return left;
  const right = parse(rest);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
