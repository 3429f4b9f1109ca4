import { randomBytes } from "node:crypto";
import { once } from "node:events";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startHttpsServer, type LocalServer } from "../tls/local-servers.js";
import type { TestCa } from "../tls/test-ca.js";
import { authorizationCodeGrant, type BrowserSignIn } from "./authorization-code.js";
import { deviceGrant, type DeviceFlow } from "./device-flow.js";
import { errorBody, type ProviderStyle } from "./error-shapes.js";

/** Options of {@link startOAuthProvider}. */
export interface OAuthProviderOptions {
  ca: TestCa;
  /** Names its HTTPS certificate is issued for (the provider's token host, e.g. login.microsoftonline.com). */
  names: readonly string[];
  clientId: string;
  /** Required with every token request when set (Google's apps have one). */
  clientSecret?: string;
  /** The refresh token the account signed in with. */
  refreshToken: string;
  /** Whose mailbox the tokens open (the introspection answer's `username`). */
  username: string;
  /** Lifetime of an access token, seconds (answered as `expires_in`). Default 3600. */
  accessTokenLifetimeS?: number;
  /** Answer with a new refresh token on every refresh and accept only the newest one, as rotating providers do. */
  rotateRefreshTokens?: boolean;
  /** Whose documented error shapes to answer with. Default microsoft. */
  style?: ProviderStyle;
}

/** One request the endpoint received: its path and form fields. */
export interface TokenEndpointRequest {
  path: string;
  form: Record<string, string>;
}

/** A running OAuth2 provider double; `close()` it in `afterAll`. */
export interface OAuthTestProvider {
  /** The HTTPS token endpoint on loopback; map the provider's `host:443` here in the egress proxy double. */
  readonly host: string;
  readonly port: number;
  /** Plain-http RFC 7662 introspection on loopback, for Dovecot's oauth2 passdb. */
  readonly introspectionUrl: string;
  /** Token requests in arrival order (a live array). */
  readonly requests: readonly TokenEndpointRequest[];
  /** Access tokens issued so far, oldest first. */
  readonly issued: readonly string[];
  /** The device-code sign-in this endpoint serves (for oauth-login tests). */
  readonly device: DeviceFlow;
  /** The browser's part of the authorization-code sign-in (for oauth-login tests). */
  readonly browser: BrowserSignIn;
  /** Whether `token` is a live access token of `username`: what the mail server doubles check. */
  accepts(username: string, token: string): boolean;
  /** The lifetime of the access tokens issued from now on, seconds. */
  setAccessTokenLifetime(seconds: number): void;
  /** Makes every access token issued so far invalid (revoked, or expired early on the server). */
  revokeAccessTokens(): void;
  /** Makes the refresh token invalid: refreshing answers `invalid_grant` from now on. */
  revokeRefreshToken(): void;
  /** Answers the next token request with `status` and `body` instead. */
  failNext(status: number, body: unknown): void;
  close(): Promise<void>;
}

interface Issued {
  user: string;
  expiresAt: number;
  revoked: boolean;
}

/**
 * Starts an OAuth2 provider double: a token endpoint over HTTPS (certificate for `names` from the test
 * CA) that refreshes access tokens (RFC 6749 section 6), runs the device-code grant (RFC 8628) and the
 * authorization-code grant with PKCE (a test plays the browser through `browser`), with
 * errors in the provider's documented shapes, and an introspection endpoint (RFC 7662) over plain http
 * on loopback that a real IMAP server can ask. Tokens expire after their lifetime, or when revoked.
 *
 * @example
 * const idp = await startOAuthProvider({ ca, names: ["login.microsoftonline.com"], clientId, refreshToken, username });
 * proxy.map("login.microsoftonline.com:443", `${idp.host}:${idp.port}`);
 */
export async function startOAuthProvider(options: OAuthProviderOptions): Promise<OAuthTestProvider> {
  const style = options.style ?? "microsoft";
  let lifetimeS = options.accessTokenLifetimeS ?? 3600;
  const tokens = new Map<string, Issued>();
  const issued: string[] = [];
  const requests: TokenEndpointRequest[] = [];
  let refreshToken: string | undefined = options.refreshToken;
  let nextFailure: { status: number; body: unknown } | undefined;

  const issue = (user: string) => {
    const token = `at-${randomBytes(18).toString("base64url")}`;
    tokens.set(token, { user, expiresAt: Date.now() + lifetimeS * 1000, revoked: false });
    issued.push(token);
    const rotated = options.rotateRefreshTokens ? (refreshToken = `rt-${randomBytes(18).toString("base64url")}`) : undefined;
    return { token_type: "Bearer", access_token: token, expires_in: lifetimeS, ...(rotated ? { refresh_token: rotated } : {}) };
  };
  const accepts = (user: string, token: string) => {
    const entry = tokens.get(token);
    return !!entry && !entry.revoked && entry.expiresAt > Date.now() && entry.user.toLowerCase() === user.toLowerCase();
  };
  const clientOk = (form: Record<string, string>) => form.client_id === options.clientId && (options.clientSecret === undefined || form.client_secret === options.clientSecret);
  // A sign-in yields the account's refresh token (valid again, should it have been revoked).
  const signedIn = () => {
    const answer = { ...issue(options.username), refresh_token: options.refreshToken, scope: "https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send" };
    refreshToken = options.refreshToken;
    return answer;
  };
  const device = deviceGrant({ style, clientId: options.clientId, issue: signedIn });
  const browser = authorizationCodeGrant({ style, clientId: options.clientId, issue: signedIn });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST") return reply(405, errorBody(style, "invalid_request", "POST only"));
    if (path.endsWith("/introspect")) {
      const entry = tokens.get(form.token ?? "");
      const active = !!entry && accepts(entry.user, form.token ?? "");
      return reply(200, active ? { active: true, username: entry.user, scope: "mail", exp: Math.floor(entry.expiresAt / 1000) } : { active: false });
    }
    requests.push({ path, form });
    if (nextFailure) {
      const failure = nextFailure;
      nextFailure = undefined;
      return reply(failure.status, failure.body);
    }
    if (path.endsWith("/devicecode") || path.endsWith("/device/code")) return device.authorize(form, reply);
    if (!clientOk(form)) return reply(401, errorBody(style, "invalid_client", "the client id or secret is wrong"));
    if (form.grant_type === "refresh_token") {
      if (!refreshToken || form.refresh_token !== refreshToken) return reply(400, errorBody(style, "invalid_grant", "the refresh token was revoked or has expired"));
      return reply(200, issue(options.username));
    }
    if (form.grant_type === "urn:ietf:params:oauth:grant-type:device_code") return device.poll(form, reply);
    if (form.grant_type === "authorization_code") return browser.exchange(form, reply);
    return reply(400, errorBody(style, "unsupported_grant_type", `grant_type ${form.grant_type ?? "(none)"} is not supported`));
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => void handle(req, res).catch(() => res.destroy());
  const https: LocalServer = await startHttpsServer(options.ca.issue(options.names), onRequest);
  const plain = http.createServer(onRequest);
  plain.listen(0, "127.0.0.1");
  await once(plain, "listening");
  const plainPort = (plain.address() as AddressInfo).port;

  return {
    host: https.host,
    port: https.port,
    introspectionUrl: `http://127.0.0.1:${plainPort}/introspect`,
    requests,
    issued,
    device,
    browser,
    accepts,
    setAccessTokenLifetime: (seconds) => {
      lifetimeS = seconds;
    },
    revokeAccessTokens: () => {
      for (const entry of tokens.values()) entry.revoked = true;
    },
    revokeRefreshToken: () => {
      refreshToken = undefined;
    },
    failNext: (status, body) => {
      nextFailure = { status, body };
    },
    async close() {
      plain.closeAllConnections();
      await Promise.all([https.close(), new Promise<void>((resolve) => plain.close(() => resolve()))]);
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error("request body over 64 KiB");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
