/**
 * The OAuth2 providers with presets: their token and device-code endpoints, the scopes that grant IMAP
 * and SMTP, and the mail servers. One table, read by the capability (refreshing access tokens), by
 * `oauth-login` (the sign-in) and, by hand, by the README's provider table.
 */
export interface OAuthPreset {
  /** What the operator reads in messages. */
  label: string;
  tokenUrl(tenant: string): string;
  deviceCodeUrl(tenant: string): string;
  /** The browser sign-in page of the authorization-code flow with a loopback redirect (RFC 8252). */
  authorizeUrl(tenant: string): string;
  /**
   * How oauth-login signs in by default: the device code (Microsoft), or a browser redirect to this machine
   * (Google, whose device flow does not grant mail scopes).
   */
  loginFlow: "device" | "loopback";
  /** The host of the loopback redirect URI, as the provider's app registration names it. */
  redirectHost: "localhost" | "127.0.0.1";
  /** Extra parameters of the browser sign-in (Google returns a refresh token only with offline access). */
  authorizeParams: Readonly<Record<string, string>>;
  /** Scopes asked for at sign-in (space-separated), and sent again when refreshing (Microsoft wants them). */
  scope: string;
  /** Whether refreshing sends `scope` (Microsoft's v2 endpoint asks for it; Google takes none). */
  scopeOnRefresh: boolean;
  /** Whether the provider's app registration for a device or desktop client comes with a secret to send. */
  needsSecret: boolean;
  /** The mail server credentials to set with it, as oauth-login suggests them. */
  servers: string;
}

// Microsoft's identity platform: `common` takes personal (Outlook.com, Hotmail) and work or school
// accounts, `consumers` personal ones only, a tenant id or domain the accounts of one organisation.
const MICROSOFT_LOGIN = "https://login.microsoftonline.com";

/** The presets by OAUTH_PROVIDER value. */
export const OAUTH_PRESETS = {
  microsoft: {
    label: "Microsoft (Outlook.com, Hotmail, Microsoft 365)",
    tokenUrl: (tenant) => `${MICROSOFT_LOGIN}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`,
    deviceCodeUrl: (tenant) => `${MICROSOFT_LOGIN}/${encodeURIComponent(tenant)}/oauth2/v2.0/devicecode`,
    authorizeUrl: (tenant) => `${MICROSOFT_LOGIN}/${encodeURIComponent(tenant)}/oauth2/v2.0/authorize`,
    loginFlow: "device",
    redirectHost: "localhost",
    authorizeParams: {},
    scope: "offline_access https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send",
    scopeOnRefresh: true,
    needsSecret: false,
    servers: "SMTP_HOST=smtp-mail.outlook.com (Outlook.com, Hotmail) or smtp.office365.com (Microsoft 365), SMTP_PORT=587, IMAP_HOST=outlook.office365.com",
  },
  google: {
    label: "Google (Gmail, Google Workspace)",
    tokenUrl: () => "https://oauth2.googleapis.com/token",
    deviceCodeUrl: () => "https://oauth2.googleapis.com/device/code",
    authorizeUrl: () => "https://accounts.google.com/o/oauth2/v2/auth",
    loginFlow: "loopback",
    redirectHost: "127.0.0.1",
    authorizeParams: { access_type: "offline", prompt: "consent" },
    scope: "https://mail.google.com/",
    scopeOnRefresh: false,
    needsSecret: true,
    servers: "SMTP_HOST=smtp.gmail.com, SMTP_PORT=465, IMAP_HOST=imap.gmail.com",
  },
} as const satisfies Record<string, OAuthPreset>;

export type OAuthProviderName = keyof typeof OAUTH_PRESETS;

/** The tenant when OAUTH_TENANT is not set: personal and work accounts alike. */
export const DEFAULT_TENANT = "common";

/** The preset named `name`, or undefined for an unknown name. */
export function presetFor(name: string): OAuthPreset | undefined {
  return Object.hasOwn(OAUTH_PRESETS, name) ? OAUTH_PRESETS[name as OAuthProviderName] : undefined;
}
