import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Orchestrator } from "@selu-catalogue/testkit/orchestrator";
import { fails, ok, startMailWorld, TOKEN_HOST, USER, type MailWorld } from "./harness.js";

const CLIENT_ID = "9f1c2e3d-4b5a-4c6d-8e7f-client000001";
const REFRESH_TOKEN = "M.C512_BAY.0.U.-refresh-token-of-alice-7Qw9";
const OAUTH = { EMAIL_PASSWORD: undefined, OAUTH_PROVIDER: "microsoft", OAUTH_CLIENT_ID: CLIENT_ID, OAUTH_REFRESH_TOKEN: REFRESH_TOKEN };
const MAIL = { to: ["bob@example.com"], subject: "Signed in with OAuth2", text: "Sent over XOAUTH2." };

let world: MailWorld;
let orchestrator: Orchestrator;
const idp = () => world.oauth!;

beforeAll(async () => {
  world = await startMailWorld([{ message: { from: "carol@example.com", to: USER, subject: "Welcome", text: "Hello" } }], {
    // Microsoft rotates refresh tokens; the double then accepts only the newest one.
    oauth: { clientId: CLIENT_ID, refreshToken: REFRESH_TOKEN, rotateRefreshTokens: true },
    // Debug logs carry error messages too: the strictest place to look for a leaked token.
    env: { LOG_LEVEL: "debug" },
  });
  orchestrator = await world.withCredentials(OAUTH);
}, 60_000);

afterAll(async () => {
  await world?.close();
});

describe("OAuth2 sign-in (XOAUTH2)", () => {
  it("sends over SMTP with an access token fetched from the provider's token endpoint through the egress proxy", async () => {
    const result = await ok(orchestrator, "send_email", MAIL);
    expect(result.accepted).toEqual(["bob@example.com"]);
    const [message] = (await world.smtp.waitForMessages(1)).slice(-1);
    expect(message!.authUser).toBe(USER);
    expect(idp().requests).toHaveLength(1);
    const { path, form } = idp().requests[0]!;
    expect(path).toBe("/common/oauth2/v2.0/token");
    expect(form).toMatchObject({ grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: REFRESH_TOKEN });
    expect(form.scope?.split(" ")).toEqual(expect.arrayContaining(["offline_access", "https://outlook.office.com/SMTP.Send", "https://outlook.office.com/IMAP.AccessAsUser.All"]));
    expect(world.proxy.attempts.some((a) => a.target === `${TOKEN_HOST}:443` && a.decision === "mapped")).toBe(true);
  });

  it("reads over IMAP (Dovecot's oauth2 passdb) with the cached access token, without asking the token endpoint again", async () => {
    const { mailboxes } = await ok(orchestrator, "list_mailboxes", {});
    expect(mailboxes.map((m: { path: string }) => m.path)).toContain("INBOX");
    const { messages } = await ok(orchestrator, "list_messages", {});
    expect(messages[0].subject).toBe("Welcome");
    expect(idp().requests).toHaveLength(1);
  });

  it("gets a new access token once when the server refuses the cached one (revoked or expired early), then succeeds", async () => {
    idp().revokeAccessTokens();
    const before = idp().requests.length;
    const { mailboxes } = await ok(orchestrator, "list_mailboxes", {});
    expect(mailboxes.length).toBeGreaterThan(0);
    expect(idp().requests).toHaveLength(before + 1);
    // The rotated refresh token from the first answer, which is the only one the provider still takes.
    expect(idp().requests.at(-1)!.form.refresh_token).not.toBe(REFRESH_TOKEN);
  });

  it("renews an access token shortly before it expires, so the server never sees an expired one", async () => {
    idp().setAccessTokenLifetime(2);
    try {
      idp().revokeAccessTokens();
      await ok(orchestrator, "send_email", { ...MAIL, subject: "Short-lived token" });
      const failures = world.smtp.authFailures;
      const requests = idp().requests.length;
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      await ok(orchestrator, "send_email", { ...MAIL, subject: "After expiry" });
      expect(idp().requests).toHaveLength(requests + 1);
      expect(world.smtp.authFailures).toBe(failures);
    } finally {
      idp().setAccessTokenLifetime(3600);
    }
  });

  it("refreshes once, then stops with what to check, when the server refuses new tokens too", async () => {
    // A live token in the cache first: the refused call then costs exactly one refresh.
    await ok(orchestrator, "list_mailboxes", {});
    const other = await world.withCredentials({ ...OAUTH, EMAIL_USERNAME: "mallory@fastmail.test" });
    const before = idp().requests.length;
    const error = await fails(other, "list_mailboxes", {});
    expect(error).toMatch(/^IMAP login to imap\.fastmail\.com:993 with an OAuth2 access token \(XOAUTH2\) failed.*also with a newly issued access token\. Check that EMAIL_USERNAME is the account/);
    expect(idp().requests).toHaveLength(before + 1);
    const sendError = await fails(other, "send_email", MAIL);
    expect(sendError).toMatch(/^SMTP login to smtp\.fastmail\.com:587 with an OAuth2 access token \(XOAUTH2\) failed/);
  });

  it("says to sign in again when the provider answers invalid_grant (a revoked or expired refresh token)", async () => {
    const other = await world.withCredentials({ ...OAUTH, OAUTH_REFRESH_TOKEN: "M.C512_BAY.revoked-long-ago-1234" });
    const error = await fails(other, "list_mailboxes", {});
    expect(error).toMatch(/^the refresh token was revoked or expired: sign in again with oauth-login .*\(invalid_grant: AADSTS70008/);
  });

  it("names the client credentials when the provider refuses the app (invalid_client)", async () => {
    const other = await world.withCredentials({ ...OAUTH, OAUTH_CLIENT_ID: "00000000-wrong-client" });
    const error = await fails(other, "send_email", MAIL);
    expect(error).toMatch(/the token endpoint login\.microsoftonline\.com refused the app \(invalid_client.*check OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET/);
  });

  it("reports a token endpoint that fails, and asks it again on the next call", async () => {
    const other = await world.withCredentials({ ...OAUTH, OAUTH_TENANT: "contoso.onmicrosoft.com" });
    idp().failNext(503, { error: "temporarily_unavailable", error_description: "try later" });
    const error = await fails(other, "list_mailboxes", {});
    expect(error).toMatch(/the token endpoint login\.microsoftonline\.com answered 503 \(temporarily_unavailable: try later\); try again later/);
    expect(idp().requests.at(-1)!.path).toBe("/contoso.onmicrosoft.com/oauth2/v2.0/token");
  });

  it("names the allowlist when the egress proxy refuses a custom token endpoint", async () => {
    const other = await world.withCredentials({ ...OAUTH, OAUTH_PROVIDER: undefined, OAUTH_TOKEN_URL: "https://auth.example.org/oauth2/token" });
    const error = await fails(other, "list_mailboxes", {});
    expect(error).toMatch(/getting an OAuth2 access token from auth\.example\.org failed: the egress proxy refused auth\.example\.org:443 \(403\): allow it in the manifest's network\.hosts/);
  });

  it("asks for a password or OAuth2 when neither is set", async () => {
    const other = await world.withCredentials({ EMAIL_PASSWORD: undefined });
    const error = await fails(other, "list_mailboxes", {});
    expect(error).toMatch(/missing credential EMAIL_PASSWORD: .* or sign in with OAuth2/);
  });

  it("never logs an access or refresh token", () => {
    const logs = world.proc.output();
    expect(logs).toContain('"outcome":"tool_error","error":');
    for (const token of [...idp().issued, REFRESH_TOKEN, ...idp().requests.map((r) => r.form.refresh_token ?? "")]) {
      if (token) expect(logs).not.toContain(token);
    }
  });
});
