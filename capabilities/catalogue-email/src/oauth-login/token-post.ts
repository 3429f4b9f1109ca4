// What both sign-in flows send to the provider: form posts with JSON answers, and refusals in words.

/** A failure the operator can act on; the message says what to change. */
export class LoginError extends Error {
  override readonly name = "LoginError";
}

/** Posts a form (Node's fetch, no redirects) and reads the JSON answer of any status. */
export async function postForm(url: string, form: Record<string, string>, timeoutMs = 30_000): Promise<{ status: number; body: Record<string, unknown> }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new LoginError(`could not reach ${host(url)}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  const raw = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== "object") throw new LoginError(`${host(url)} answered ${response.status} without JSON; check the URL`);
  return { status: response.status, body: body as Record<string, unknown> };
}

/** The provider refused `what` (RFC 6749 section 5.2 body), with advice for the usual causes. */
export function refusal(what: string, body: Record<string, unknown>): LoginError {
  const code = text(body.error) ?? "no error code";
  const description = text(body.error_description);
  const advice =
    code === "invalid_client" || code === "unauthorized_client"
      ? "; check the client id (and secret), and that the app registration allows this sign-in (public client flows, or a desktop app)"
      : code === "invalid_scope"
        ? "; the app registration must allow the IMAP and SMTP scopes"
        : code === "invalid_grant"
          ? "; the code was used already or expired: run oauth-login again"
          : "";
  return new LoginError(`${what} was refused (${code}${description ? `: ${description.slice(0, 300)}` : ""})${advice}`);
}

/** The refresh token of a successful token answer, or what went wrong. */
export function refreshTokenOf(answer: { status: number; body: Record<string, unknown> }): { refreshToken: string; scope: string | undefined } {
  if (answer.status !== 200) throw refusal("the token request", answer.body);
  const refreshToken = text(answer.body.refresh_token);
  if (!refreshToken)
    throw new LoginError("signed in, but the provider sent no refresh token: the scopes must include offline_access (Microsoft), or consent must be asked again (Google: prompt=consent)");
  return { refreshToken, scope: text(answer.body.scope) };
}

export function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function host(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
