import type { CredentialSpecs } from "@selu-catalogue/kit";

/**
 * The mailbox account, one per user (user scope). Names are fixed: end-to-end tests and operators'
 * settings depend on them.
 */
export const credentials = {
  SMTP_HOST: { scope: "user", required: true, description: "SMTP server for sending, e.g. smtp.fastmail.com" },
  SMTP_PORT: { scope: "user", required: false, description: "SMTP port (default 587; 465 for implicit TLS)" },
  SMTP_SECURITY: {
    scope: "user",
    required: false,
    description: "starttls or tls (implicit TLS); default tls on port 465, else starttls",
  },
  IMAP_HOST: { scope: "user", required: true, description: "IMAP server for reading, e.g. imap.fastmail.com" },
  IMAP_PORT: { scope: "user", required: false, description: "IMAP port (default 993; 143 for STARTTLS)" },
  IMAP_SECURITY: {
    scope: "user",
    required: false,
    description: "tls (implicit TLS) or starttls; default starttls on port 143, else tls",
  },
  EMAIL_USERNAME: { scope: "user", required: true, description: "Login name for SMTP and IMAP, usually the email address" },
  EMAIL_PASSWORD: { scope: "user", required: false, description: "Password or app password for SMTP and IMAP; not needed with OAuth2 (OAUTH_REFRESH_TOKEN)" },
  OAUTH_PROVIDER: { scope: "user", required: false, description: "OAuth2 sign-in instead of a password: microsoft (Outlook.com, Microsoft 365) or google" },
  OAUTH_TENANT: {
    scope: "user",
    required: false,
    description: "Microsoft only: common (default; personal and work accounts), consumers, organizations, or your tenant id or domain",
  },
  OAUTH_TOKEN_URL: { scope: "user", required: false, description: "Token endpoint of another OAuth2 provider (https), instead of OAUTH_PROVIDER" },
  OAUTH_CLIENT_ID: { scope: "user", required: false, description: "OAuth2: the application (client) id of your app registration" },
  OAUTH_CLIENT_SECRET: { scope: "user", required: false, description: "OAuth2: the app's client secret, where the provider issues one (Google does)" },
  OAUTH_REFRESH_TOKEN: { scope: "user", required: false, description: "OAuth2: the refresh token printed by oauth-login; setting it turns OAuth2 on" },
  EMAIL_FROM_ADDRESS: { scope: "user", required: false, description: "Sender address (default: EMAIL_USERNAME)" },
  EMAIL_FROM_NAME: { scope: "user", required: false, description: "Sender display name, e.g. Alice Example" },
} as const satisfies CredentialSpecs;

export type MailCredentials = typeof credentials;

/**
 * What the IMAP tools need before they run (the kit names a missing one); the password or the OAuth2
 * credentials are checked by readAccount, as either will do.
 */
export const IMAP_NEEDS = ["IMAP_HOST", "EMAIL_USERNAME"] as const;
/** What sending needs; a reply reads the original over IMAP too, checked when it does. */
export const SMTP_NEEDS = ["SMTP_HOST", "EMAIL_USERNAME"] as const;
