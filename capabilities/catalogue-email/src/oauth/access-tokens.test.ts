import { createHttpClient } from "@selu-catalogue/kit/egress";
import { startOAuthProvider, type OAuthTestProvider } from "@selu-catalogue/testkit/oauth";
import { createTestCa } from "@selu-catalogue/testkit/tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessTokens } from "./access-tokens.js";
import type { OAuthSettings } from "./settings.js";

const CLIENT_ID = "client-of-the-cache-test";
const REFRESH_TOKEN = "refresh-token-of-the-cache-test";

let ca: ReturnType<typeof createTestCa>;
let idp: OAuthTestProvider;
let ctx: { http: ReturnType<typeof createHttpClient>; signal: AbortSignal };
let settings: OAuthSettings;

beforeAll(async () => {
  ca = createTestCa();
  idp = await startOAuthProvider({ ca, names: ["localhost"], clientId: CLIENT_ID, refreshToken: REFRESH_TOKEN, username: "alice@example.com" });
  // The kit's own client, straight to the provider double on loopback (the capability's goes through the proxy).
  const http = createHttpClient({ timeouts: { connectMs: 5000, headersMs: 5000, bodyMs: 5000 }, maxResponseBytes: 64 * 1024, allowPrivateNetworks: true, ca: ca.certPem });
  ctx = { http, signal: new AbortController().signal };
  settings = { tokenUrl: new URL(`https://localhost:${idp.port}/token`), clientId: CLIENT_ID, clientSecret: undefined, refreshToken: REFRESH_TOKEN, scope: undefined };
});

afterAll(async () => {
  await ctx?.http.close();
  await idp?.close();
});

describe("AccessTokens", () => {
  it("asks the token endpoint once for calls that need a token at the same time", async () => {
    const tokens = new AccessTokens();
    const before = idp.requests.length;
    const got = await Promise.all(Array.from({ length: 5 }, () => tokens.get(ctx, settings)));
    expect(new Set(got).size).toBe(1);
    expect(idp.requests).toHaveLength(before + 1);
    expect(idp.accepts("alice@example.com", got[0]!)).toBe(true);
  });

  it("keeps a token until shortly before it expires, then refreshes with the rotated refresh token", async () => {
    const rotating = await startOAuthProvider({ ca, names: ["localhost"], clientId: CLIENT_ID, refreshToken: REFRESH_TOKEN, username: "alice@example.com", rotateRefreshTokens: true });
    try {
      const at = { ...settings, tokenUrl: new URL(`https://localhost:${rotating.port}/token`) };
      let now = Date.now();
      const tokens = new AccessTokens({ now: () => now });
      const first = await tokens.get(ctx, at);
      now += 3600_000 - 61_000;
      expect(await tokens.get(ctx, at)).toBe(first);
      now += 2_000;
      const second = await tokens.get(ctx, at);
      expect(second).not.toBe(first);
      expect(rotating.requests.at(-1)!.form.refresh_token).not.toBe(REFRESH_TOKEN);
      expect([...tokens.issued]).toEqual([second]);
    } finally {
      await rotating.close();
    }
  });

  it("fetches a new token after the server refused the cached one", async () => {
    const tokens = new AccessTokens();
    const first = await tokens.get(ctx, settings);
    tokens.forget(settings, first);
    expect(await tokens.get(ctx, settings)).not.toBe(first);
  });

  it("forgets the oldest account past its bound", async () => {
    const second = await startOAuthProvider({ ca, names: ["localhost"], clientId: CLIENT_ID, refreshToken: REFRESH_TOKEN, username: "bob@example.com" });
    try {
      const tokens = new AccessTokens({ maxAccounts: 1 });
      const alice = await tokens.get(ctx, settings);
      const bob = await tokens.get(ctx, { ...settings, tokenUrl: new URL(`https://localhost:${second.port}/token`) });
      expect([...tokens.issued]).toEqual([bob]);
      const before = idp.requests.length;
      expect(await tokens.get(ctx, settings)).not.toBe(alice);
      expect(idp.requests).toHaveLength(before + 1);
    } finally {
      await second.close();
    }
  });

  it("says to sign in again when the refresh token is refused", async () => {
    await expect(new AccessTokens().get(ctx, { ...settings, refreshToken: "revoked" })).rejects.toThrow(/^the refresh token was revoked or expired: sign in again with oauth-login/);
  });
});
