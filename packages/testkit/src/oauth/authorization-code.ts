import { createHash, randomBytes } from "node:crypto";
import { errorBody, type ProviderStyle } from "./error-shapes.js";

type Reply = (status: number, body: unknown) => void;

/** The browser's part of the authorization-code flow (RFC 6749 section 4.1 with PKCE), as a test plays it. */
export interface BrowserSignIn {
  /** The query of the last sign-in page opened. */
  readonly lastAuthorize: URLSearchParams | undefined;
  /**
   * Opens the sign-in page the command printed and signs in: returns the redirect URI with `code` and
   * `state`, where the provider sends the browser back. Throws for a client id the provider doesn't know.
   */
  signIn(authorizeUrl: string): string;
  /** The user declines: the redirect URI with `error=access_denied` and `state`. */
  decline(authorizeUrl: string): string;
}

export interface AuthorizationCodeGrant extends BrowserSignIn {
  exchange(form: Record<string, string>, reply: Reply): void;
}

interface Options {
  style: ProviderStyle;
  clientId: string;
  /** The token answer for an exchanged code (with a refresh token). */
  issue(): Record<string, unknown>;
}

/** Codes issued to a signed-in browser, each exchangeable once with its PKCE verifier and redirect URI. */
export function authorizationCodeGrant(options: Options): AuthorizationCodeGrant {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  let lastAuthorize: URLSearchParams | undefined;
  const open = (authorizeUrl: string) => {
    const query = new URL(authorizeUrl).searchParams;
    lastAuthorize = query;
    if (query.get("client_id") !== options.clientId) throw new Error(`the provider does not know the client id ${query.get("client_id")}`);
    const redirect = new URL(query.get("redirect_uri") ?? "");
    redirect.searchParams.set("state", query.get("state") ?? "");
    return { query, redirect };
  };
  return {
    get lastAuthorize() {
      return lastAuthorize;
    },
    signIn(authorizeUrl) {
      const { query, redirect } = open(authorizeUrl);
      if (query.get("response_type") !== "code" || query.get("code_challenge_method") !== "S256") throw new Error("expected response_type=code with an S256 code challenge");
      const code = `ac-${randomBytes(12).toString("hex")}`;
      codes.set(code, { challenge: query.get("code_challenge") ?? "", redirectUri: query.get("redirect_uri") ?? "" });
      redirect.searchParams.set("code", code);
      return redirect.href;
    },
    decline(authorizeUrl) {
      const { redirect } = open(authorizeUrl);
      redirect.searchParams.set("error", "access_denied");
      redirect.searchParams.set("error_description", "The user declined.");
      return redirect.href;
    },
    exchange(form, reply) {
      const entry = codes.get(form.code ?? "");
      codes.delete(form.code ?? "");
      const verified =
        entry &&
        entry.redirectUri === form.redirect_uri &&
        createHash("sha256")
          .update(form.code_verifier ?? "")
          .digest("base64url") === entry.challenge;
      if (!verified) return reply(400, errorBody(options.style, "invalid_grant", "the code is unknown, used, or does not match the verifier or redirect URI"));
      reply(200, options.issue());
    },
  };
}
