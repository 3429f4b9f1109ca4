/** An address as written by the model: `alice@example.com` or `Alice Example <alice@example.com>`. */
export interface ParsedAddress {
  address: string;
  name: string | undefined;
}

// Deliberately stricter than RFC 5322: no comments, no quoted local parts, no IP-literal domains.
// Anything a person types into a To field fits, and nothing that could smuggle header syntax does.
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^(?=.{1,253}$)(?:[A-Za-z0-9\u00a1-\uffff](?:[A-Za-z0-9\u00a1-\uffff-]{0,61}[A-Za-z0-9\u00a1-\uffff])?\.)+[A-Za-z\u00a1-\uffff][A-Za-z0-9\u00a1-\uffff-]{0,62}$/;
const WITH_NAME = /^(.*?)\s*<([^<>]*)>$/;

/** Parses one address; undefined when it is not a single valid address. */
export function parseAddress(input: string): ParsedAddress | undefined {
  const text = input.trim();
  if (text.length === 0 || text.length > 320 || /[\r\n\0]/.test(text)) return undefined;
  const named = WITH_NAME.exec(text);
  const address = (named ? named[2]! : text).trim();
  const name = named
    ? named[1]!
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .trim()
    : undefined;
  if (name !== undefined && /["<>\\]/.test(name)) return undefined;
  const at = address.lastIndexOf("@");
  if (at <= 0 || address.length > 254) return undefined;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > 64 || !LOCAL.test(local) || !DOMAIN.test(domain)) return undefined;
  return { address, name: name || undefined };
}

/** `Name <address>` or the bare address, for results. */
export function formatAddress(entry: { name?: string | undefined; address?: string | undefined }): string {
  const address = entry.address ?? "";
  return entry.name ? `${entry.name} <${address}>` : address;
}
