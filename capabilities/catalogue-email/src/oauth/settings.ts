import { ToolError } from "@selu-catalogue/kit";
import { DEFAULT_TENANT, OAUTH_PRESETS, presetFor } from "./providers.js";

/** What refreshing an access token needs, read once per call from the credentials. */
export interface OAuthSettings {
  /** The token endpoint (https): the preset's or OAUTH_TOKEN_URL. */
  tokenUrl: URL;
  clientId: string;
  clientSecret: string | undefined;
  refreshToken: string;
  /** Sent with the refresh when the provider wants it. */
  scope: string | undefined;
}

type Values = Readonly<Record<string, string | undefined>>;

const TENANT = /^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/;
const NAMES = Object.keys(OAUTH_PRESETS).join(" or ");

/**
 * The OAuth2 settings when OAUTH_REFRESH_TOKEN is set, else undefined (password sign-in). The token
 * endpoint is OAUTH_PROVIDER's preset or OAUTH_TOKEN_URL; each problem names the credential to fix.
 */
export function readOAuthSettings(values: Values): OAuthSettings | undefined {
  const refreshToken = oneLine(values, "OAUTH_REFRESH_TOKEN");
  if (!refreshToken) return undefined;
  const clientId = oneLine(values, "OAUTH_CLIENT_ID");
  if (!clientId) throw fix("OAUTH_CLIENT_ID is missing: set the application (client) id the refresh token was issued to");
  const clientSecret = oneLine(values, "OAUTH_CLIENT_SECRET");
  const providerName = values.OAUTH_PROVIDER?.trim().toLowerCase();
  const custom = oneLine(values, "OAUTH_TOKEN_URL");
  if (custom) {
    return { tokenUrl: tokenUrl(custom), clientId, clientSecret, refreshToken, scope: undefined };
  }
  if (!providerName) throw fix(`OAUTH_PROVIDER is missing: set ${NAMES}, or set OAUTH_TOKEN_URL to another provider's token endpoint`);
  const preset = presetFor(providerName);
  if (!preset) throw fix(`OAUTH_PROVIDER must be ${NAMES} (got ${JSON.stringify(providerName.slice(0, 40))}); for another provider set OAUTH_TOKEN_URL instead`);
  const tenant = values.OAUTH_TENANT?.trim() || DEFAULT_TENANT;
  if (!TENANT.test(tenant)) throw fix("OAUTH_TENANT must be common, consumers, organizations, a tenant id or a domain like contoso.onmicrosoft.com");
  if (preset.needsSecret && !clientSecret) throw fix(`OAUTH_CLIENT_SECRET is missing: ${preset.label} sends one with every token request`);
  return { tokenUrl: new URL(preset.tokenUrl(tenant)), clientId, clientSecret, refreshToken, scope: preset.scopeOnRefresh ? preset.scope : undefined };
}

function tokenUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fix("OAUTH_TOKEN_URL is not a URL: set the provider's token endpoint, e.g. https://auth.example.com/oauth2/token");
  }
  // Selu's egress proxy tunnels https only; a token in clear text would be readable on the way.
  if (url.protocol !== "https:") throw fix("OAUTH_TOKEN_URL must start with https://");
  if (url.username || url.password) throw fix("OAUTH_TOKEN_URL must not carry a user name or password; use OAUTH_CLIENT_SECRET");
  return url;
}

function oneLine(values: Values, name: string): string | undefined {
  const value = values[name]?.trim();
  if (!value) return undefined;
  if (/[\r\n\0]/.test(value)) throw fix(`${name} must not contain line breaks`);
  return value;
}

function fix(problem: string): ToolError {
  return new ToolError(`credential ${problem}; fix it in Selu's credentials for the email capability`);
}
