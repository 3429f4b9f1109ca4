/** The user name Selu puts in every capability's proxy URL (`http://selu:<token>@host:8888`). */
export const PROXY_USER = "selu";

/** The `Proxy-Authorization` value a capability holding `token` sends: `Basic base64(selu:token)`. */
export function proxyAuthorization(token: string): string {
  return `Basic ${Buffer.from(`${PROXY_USER}:${token}`, "utf8").toString("base64")}`;
}

/**
 * The token in a `Proxy-Authorization` header, read as Selu's proxy reads it
 * (`extract_proxy_auth_token_from_headers`): `Basic ` or `basic ` then standard base64 of UTF-8
 * `user:token`; the user name is not checked. Undefined when the header is missing or unparsable, which
 * Selu answers with 407; a token that parses but is not the capability's gets 403.
 */
export function proxyToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const encoded = header.startsWith("Basic ") ? header.slice(6) : header.startsWith("basic ") ? header.slice(6) : undefined;
  if (encoded === undefined) return undefined;
  const trimmed = encoded.trim();
  // The base64 crate's STANDARD engine: standard alphabet, canonical padding, nothing else.
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(trimmed)) return undefined;
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(trimmed, "base64"));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}
