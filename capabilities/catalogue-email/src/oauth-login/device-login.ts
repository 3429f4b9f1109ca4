// The OAuth2 device authorization grant (RFC 8628), run once on the operator's machine: no browser
// redirect to catch and no port to open, and it works over SSH too. Node's fetch; errors in words.
import { host, LoginError, postForm, refreshTokenOf, refusal, text } from "./token-post.js";

/** Where and as whom to sign in. */
export interface DeviceLoginRequest {
  deviceCodeUrl: string;
  tokenUrl: string;
  clientId: string;
  /** Sent with each poll when the provider issues one (Google). */
  clientSecret: string | undefined;
  scope: string;
}

/** What a sign-in yields. */
export interface LoginResult {
  refreshToken: string;
  /** The scopes granted, as the token endpoint reports them. */
  scope: string | undefined;
}

export interface DeviceLoginOptions {
  /** Shows the operator where to go and which code to enter (and progress). */
  say(line: string): void;
  /** Waits between polls; tests pass a shorter one. */
  sleep?: (ms: number) => Promise<void>;
  /** Bounds each request. Default 30 s. */
  requestTimeoutMs?: number;
}

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/**
 * Asks for a device code, tells the operator where to enter it, and polls the token endpoint until the
 * sign-in is approved, declined or expired (honouring `interval` and `slow_down`).
 * @throws {LoginError} for a refused client, a declined or expired sign-in, no refresh token.
 */
export async function deviceLogin(request: DeviceLoginRequest, options: DeviceLoginOptions): Promise<LoginResult> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const post = (url: string, form: Record<string, string>) => postForm(url, form, options.requestTimeoutMs);
  const authorization = await post(request.deviceCodeUrl, { client_id: request.clientId, scope: request.scope });
  if (authorization.status !== 200) throw refusal("the device authorization", authorization.body);
  const deviceCode = text(authorization.body.device_code);
  const userCode = text(authorization.body.user_code);
  // Google names it verification_url; RFC 8628 (and Microsoft) verification_uri.
  const uri = text(authorization.body.verification_uri) ?? text(authorization.body.verification_url);
  if (!deviceCode || !userCode || !uri) throw new LoginError(`${host(request.deviceCodeUrl)} answered without a device code; check the device-code URL`);
  options.say(`Open ${uri} in a browser, sign in with the mailbox's account and enter the code ${userCode}.`);
  let intervalS = positive(authorization.body.interval) ?? 5;
  const deadline = Date.now() + (positive(authorization.body.expires_in) ?? 900) * 1000;
  const poll = { grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: request.clientId, ...(request.clientSecret ? { client_secret: request.clientSecret } : {}) };
  while (Date.now() < deadline) {
    await sleep(intervalS * 1000);
    const answer = await post(request.tokenUrl, poll);
    if (answer.status === 200) return refreshTokenOf(answer);
    switch (answer.body.error) {
      case "authorization_pending":
        continue;
      case "slow_down":
        intervalS += 5;
        continue;
      case "access_denied":
      case "authorization_declined":
        throw new LoginError("the sign-in was declined in the browser; run oauth-login again and accept the requested access");
      case "expired_token":
        throw new LoginError("the code expired before the sign-in finished; run oauth-login again");
      default:
        throw refusal("the token request", answer.body);
    }
  }
  throw new LoginError("the code expired before the sign-in finished; run oauth-login again");
}

function positive(value: unknown): number | undefined {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
