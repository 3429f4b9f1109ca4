import { ToolError, type ToolContext } from "@selu-catalogue/kit";
import type { OAuthSettings } from "./settings.js";

/** A token endpoint's successful answer (RFC 6749 section 5.1), as far as mail needs it. */
export interface IssuedToken {
  accessToken: string;
  /** Seconds the token is valid from now; providers send 3599-3600, a default of one hour otherwise. */
  expiresInS: number;
  /** A rotated refresh token, when the provider sends one (Microsoft does on every refresh). */
  refreshToken: string | undefined;
}

/** The advice for a refresh token the provider no longer accepts (issue 18). */
export const SIGN_IN_AGAIN = "the refresh token was revoked or expired: sign in again with oauth-login and paste the new OAUTH_REFRESH_TOKEN into Selu's credentials";

const DEFAULT_LIFETIME_S = 3600;

/**
 * Exchanges the refresh token for an access token at the token endpoint, through the egress proxy
 * (`ctx.http`). Errors name the endpoint's host and what to change; they never quote a token.
 */
export async function refreshAccessToken(ctx: Pick<ToolContext, "http" | "signal">, settings: OAuthSettings, refreshToken: string): Promise<IssuedToken> {
  const form = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: settings.clientId });
  if (settings.clientSecret) form.set("client_secret", settings.clientSecret);
  if (settings.scope) form.set("scope", settings.scope);
  const host = settings.tokenUrl.host;
  let response: Awaited<ReturnType<typeof ctx.http.request>>;
  try {
    response = await ctx.http.request(settings.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form.toString(),
      signal: ctx.signal,
    });
  } catch (err) {
    ctx.signal.throwIfAborted();
    if (err instanceof ToolError) throw new ToolError(`getting an OAuth2 access token from ${host} failed: ${err.message}`, { cause: err });
    throw err;
  }
  const body = parseJson(response.body);
  if (response.status >= 200 && response.status < 300) {
    const accessToken = body?.access_token;
    if (typeof accessToken !== "string" || accessToken === "" || /[\x00-\x1f\x7f]/.test(accessToken)) {
      throw new ToolError(`the token endpoint ${host} answered ${response.status} without a usable access_token; check OAUTH_TOKEN_URL`);
    }
    const expiresIn = Number(body?.expires_in);
    const rotated = body?.refresh_token;
    return {
      accessToken,
      expiresInS: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : DEFAULT_LIFETIME_S,
      refreshToken: typeof rotated === "string" && rotated !== "" ? rotated : undefined,
    };
  }
  throw tokenError(host, response.status, body);
}

/** The error of a refused token request (RFC 6749 section 5.2), in words an operator can act on. */
function tokenError(host: string, status: number, body: Record<string, unknown> | undefined): ToolError {
  const code = typeof body?.error === "string" ? body.error.slice(0, 64) : undefined;
  const said = code ? ` (${code}${describe(body)})` : "";
  switch (code) {
    case "invalid_grant":
      return new ToolError(`${SIGN_IN_AGAIN}${said}`);
    case "invalid_client":
    case "unauthorized_client":
      return new ToolError(`the token endpoint ${host} refused the app${said}: check OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET (the app the refresh token was issued to)`);
    case "invalid_scope":
      return new ToolError(`the token endpoint ${host} refused the scopes${said}: sign in again with oauth-login so the app is granted IMAP and SMTP access`);
    default:
      return new ToolError(`the token endpoint ${host} answered ${status}${said}; try again later, or check OAUTH_PROVIDER, OAUTH_TENANT and OAUTH_TOKEN_URL`);
  }
}

// Providers explain in error_description (Microsoft's AADSTS codes); it never holds a token, but is cut
// to one short line all the same.
function describe(body: Record<string, unknown> | undefined): string {
  const text = body?.error_description;
  if (typeof text !== "string" || text.trim() === "") return "";
  return `: ${text
    .replace(/[\x00-\x1f\x7f]+/g, " ")
    .trim()
    .slice(0, 200)}`;
}

function parseJson(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString("utf8"));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
