import { ToolError, type ToolContext } from "@selu-catalogue/kit";
import type { AccessTokens } from "./oauth/access-tokens.js";
import { maskTokens } from "./oauth/mask-tokens.js";
import { readOAuthSettings, type OAuthSettings } from "./oauth/settings.js";

/** What one SMTP or IMAP login sends: a password, or an OAuth2 access token (SASL XOAUTH2). */
export type Login = { user: string; pass: string; accessToken?: undefined } | { user: string; accessToken: string; pass?: undefined };

/** The account as the tools use it, read once per call from the credentials. */
export interface MailAccount {
  username: string;
  /** OAuth2 when OAUTH_REFRESH_TOKEN is set, else the password. */
  oauth: OAuthSettings | undefined;
  password: string | undefined;
}

/** An account with the container's access tokens: what a session needs to log in. */
export interface MailAccess {
  account: MailAccount;
  tokens: AccessTokens;
}

/**
 * The server refused the login (SMTP 535, IMAP NO [AUTHENTICATIONFAILED]): with OAuth2, worth one more
 * attempt with a freshly issued access token.
 */
export class LoginRefused extends ToolError {
  override readonly name = "LoginRefused";
}

type Values = Readonly<Record<string, string | undefined>>;

/** EMAIL_USERNAME with OAuth2 (when a refresh token is set) or EMAIL_PASSWORD. */
export function readAccount(values: Values): MailAccount {
  const username = oneLine(values, "EMAIL_USERNAME");
  if (!username) throw new ToolError("missing credential EMAIL_USERNAME: set it in Selu's credentials for the email capability");
  const oauth = readOAuthSettings(values);
  if (oauth) return { username, oauth, password: undefined };
  const password = oneLine(values, "EMAIL_PASSWORD");
  if (!password) {
    throw new ToolError(
      "missing credential EMAIL_PASSWORD: set the account's password or app password in Selu's credentials, " +
        "or sign in with OAuth2 (OAUTH_PROVIDER, OAUTH_CLIENT_ID, OAUTH_REFRESH_TOKEN from oauth-login; see the capability's README)",
    );
  }
  return { username, oauth: undefined, password };
}

/**
 * Runs `attempt` with the account's login. With OAuth2, a refused login is retried once with a new
 * access token (the cached one may have been revoked or expired early); a second refusal ends the call
 * with what to check. Access tokens are masked in whatever error leaves here.
 */
export async function withLogin<T>(ctx: Pick<ToolContext, "http" | "signal">, access: MailAccess, attempt: (login: Login) => Promise<T>): Promise<T> {
  const { account, tokens } = access;
  const { oauth } = account;
  if (!oauth) return attempt({ user: account.username, pass: account.password ?? "" });
  const first = await tokens.get(ctx, oauth);
  try {
    return await attempt({ user: account.username, accessToken: first });
  } catch (err) {
    if (!(err instanceof LoginRefused)) throw maskTokens(err, tokens.issued, account.username);
    tokens.forget(oauth, first);
  }
  const second = await tokens.get(ctx, oauth);
  try {
    return await attempt({ user: account.username, accessToken: second });
  } catch (err) {
    if (!(err instanceof LoginRefused)) throw maskTokens(err, tokens.issued, account.username);
    throw maskTokens(
      new LoginRefused(
        `${err.message}, also with a newly issued access token. Check that EMAIL_USERNAME is the account that signed in with oauth-login, ` +
          "that the app was granted IMAP and SMTP access (sign in again with oauth-login), and that the provider allows IMAP and SMTP for this mailbox",
      ),
      tokens.issued,
      account.username,
    );
  }
}

function oneLine(values: Values, name: string): string | undefined {
  const value = values[name];
  if (!value) return undefined;
  if (/[\r\n\0]/.test(value)) throw new ToolError(`credential ${name} must not contain line breaks; fix it in Selu's credentials`);
  return value;
}

/** How a login authenticates: EMAIL_PASSWORD, or an OAuth2 access token from OAUTH_REFRESH_TOKEN. */
export type LoginMethod = "password" | "oauth2";

/**
 * The rest of "SMTP login to host:port …" after the server refused it: what to check, by method.
 * `said` is the server's quoted answer (or "").
 */
export function loginAdvice(method: LoginMethod, said: string): string {
  if (method === "oauth2") return `with an OAuth2 access token (XOAUTH2) failed${said}`;
  return (
    `failed${said}. Check EMAIL_USERNAME and EMAIL_PASSWORD in Selu's credentials ` +
    "(many providers need an app password when two-factor sign-in is on; Outlook.com and Microsoft 365 need OAuth2, see the README)"
  );
}
