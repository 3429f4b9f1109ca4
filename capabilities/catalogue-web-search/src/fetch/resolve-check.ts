import { ToolError } from "@selu-catalogue/kit";
import { blockedAddressKind } from "@selu-catalogue/kit/egress";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";

/** `dns.lookup` with `{all: true}`, injectable for tests. */
export type LookupAll = (hostname: string, callback: (err: Error | null, addresses: LookupAddress[]) => void) => void;

export const systemLookup: LookupAll = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

/**
 * Resolves `host` as the container sees it and refuses it when any address is internal. Through Selu's
 * proxy the proxy resolves the name again for the connection, so this is a pre-check (a name that
 * changes its answer in between, DNS rebinding, is only caught where the kit connects directly and
 * checks the address it dials); it catches the common case of a public-looking name pointing inside.
 * A name the container can't resolve (or not within `timeoutMs`) is left to the proxy.
 * @throws {ToolError} naming `field`.
 */
export async function refuseInternalResolution(host: string, field: string, lookup: LookupAll, timeoutMs: number): Promise<void> {
  const bare = host.startsWith("[") ? host.slice(1, -1) : host;
  if (isIP(bare)) return;
  const addresses = await new Promise<LookupAddress[]>((resolve) => {
    const timer = setTimeout(() => resolve([]), timeoutMs);
    lookup(bare, (err, found) => {
      clearTimeout(timer);
      resolve(err ? [] : found);
    });
  });
  for (const { address } of addresses) {
    const kind = blockedAddressKind(address);
    if (kind) {
      throw new ToolError(
        `${field}: refusing to fetch ${bare}: it resolves to ${address}, a ${kind} address, not a public one ` +
          "(SSRF guard; an administrator can set FETCH_ALLOW_PRIVATE_NETWORKS=true to allow internal pages)",
      );
    }
  }
}
