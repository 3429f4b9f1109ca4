import { timingSafeEqual } from "node:crypto";

/** The user name Selu puts in every capability's proxy URL (`http://selu:<token>@host:8888`). */
export const PROXY_USER = "selu";

/** The `Proxy-Authorization` value a capability holding `token` sends: `Basic base64(selu:token)`. */
export function proxyAuthorization(token: string): string {
  return `Basic ${Buffer.from(`${PROXY_USER}:${token}`, "utf8").toString("base64")}`;
}

/**
 * Checks a `Proxy-Authorization` header against the capability's token, as Selu's proxy does: Basic
 * scheme (case-insensitive), user `selu`, password equal to the token (compared in constant time).
 */
export function isAuthorized(header: string | undefined, token: string): boolean {
  const match = /^basic[ ]+([A-Za-z0-9+/]+=*)[ ]*$/i.exec(header ?? "");
  if (!match) return false;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0 || decoded.slice(0, colon) !== PROXY_USER) return false;
  const given = Buffer.from(decoded.slice(colon + 1), "utf8");
  const expected = Buffer.from(token, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
