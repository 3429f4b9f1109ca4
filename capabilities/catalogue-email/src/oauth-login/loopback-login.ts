// The OAuth2 authorization-code flow with PKCE and a loopback redirect (RFC 8252, RFC 7636), run once on
// the operator's machine: the browser signs in and is sent back to a one-off server on 127.0.0.1.
import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { LoginResult } from "./device-login.js";
import { LoginError, postForm, refreshTokenOf } from "./token-post.js";

/** Where and as whom to sign in. */
export interface LoopbackLoginRequest {
  authorizeUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string | undefined;
  scope: string;
  /** The redirect URI's host as the app registration has it; the server listens on 127.0.0.1 either way. */
  redirectHost: "localhost" | "127.0.0.1";
  /** Extra query parameters of the sign-in page. */
  authorizeParams?: Readonly<Record<string, string>>;
  /** The local port (for an SSH tunnel); default a free one. */
  port?: number;
}

export interface LoopbackLoginOptions {
  say(line: string): void;
  /** How long the browser may take. Default 5 minutes. */
  timeoutMs?: number;
}

/**
 * Prints the sign-in address, waits for the browser to come back with a code (checking `state`), and
 * exchanges it with the PKCE verifier for tokens.
 * @throws {LoginError} for a declined or timed-out sign-in, a refused exchange, no refresh token.
 */
export async function loopbackLogin(request: LoopbackLoginRequest, options: LoopbackLoginOptions): Promise<LoginResult> {
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(16).toString("hex");
  let settle: { resolve(code: string): void; reject(err: Error): void } | undefined;
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  const server = http.createServer((req, res) => {
    const query = new URL(req.url ?? "/", "http://127.0.0.1").searchParams;
    const page = (status: number, line: string) => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      res.end(`${line}\n`);
    };
    // Anything without our state (a favicon request, a stale tab) is not the answer.
    if (query.get("state") !== state) return page(400, "This is not the sign-in this terminal started.");
    const error = query.get("error");
    if (error) {
      page(200, "The sign-in did not complete; see the terminal.");
      const description = query.get("error_description");
      return settle?.reject(
        new LoginError(`the sign-in was refused in the browser (${error}${description ? `: ${description.slice(0, 300)}` : ""}); run oauth-login again and accept the requested access`),
      );
    }
    const received = query.get("code");
    if (!received) return page(400, "The answer has no code.");
    page(200, "Signed in. You can close this tab and return to the terminal.");
    settle?.resolve(received);
  });
  server.listen(request.port ?? 0, "127.0.0.1");
  try {
    await once(server, "listening");
    const redirectUri = `http://${request.redirectHost}:${(server.address() as AddressInfo).port}/`;
    const url = new URL(request.authorizeUrl);
    const params = {
      client_id: request.clientId,
      response_type: "code",
      redirect_uri: redirectUri,
      scope: request.scope,
      state,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      ...request.authorizeParams,
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    options.say(`Open this address in a browser on this machine and sign in with the mailbox's account:\n\n  ${url.href}\n`);
    const timeoutMs = options.timeoutMs ?? 5 * 60_000;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LoginError(`no sign-in came back within ${Math.round(timeoutMs / 1000)} s; run oauth-login again`)), timeoutMs);
    });
    const received = await Promise.race([code, late]).finally(() => clearTimeout(timer));
    const form = { grant_type: "authorization_code", code: received, redirect_uri: redirectUri, client_id: request.clientId, code_verifier: verifier };
    return refreshTokenOf(await postForm(request.tokenUrl, request.clientSecret ? { ...form, client_secret: request.clientSecret } : form));
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
