import { describe, expect, it } from "vitest";
import { readOAuthSettings } from "./settings.js";

const BASE = { OAUTH_CLIENT_ID: "client-1", OAUTH_REFRESH_TOKEN: "refresh-1" };

describe("readOAuthSettings", () => {
  it("is off without a refresh token (password sign-in)", () => {
    expect(readOAuthSettings({ OAUTH_PROVIDER: "microsoft", OAUTH_CLIENT_ID: "client-1" })).toBeUndefined();
  });

  it("takes Microsoft's token endpoint for the tenant (common by default) and sends the mail scopes on refresh", () => {
    const common = readOAuthSettings({ ...BASE, OAUTH_PROVIDER: "Microsoft" })!;
    expect(common.tokenUrl.href).toBe("https://login.microsoftonline.com/common/oauth2/v2.0/token");
    expect(common.scope).toContain("https://outlook.office.com/SMTP.Send");
    const work = readOAuthSettings({ ...BASE, OAUTH_PROVIDER: "microsoft", OAUTH_TENANT: "contoso.onmicrosoft.com" })!;
    expect(work.tokenUrl.href).toBe("https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token");
  });

  it("takes Google's token endpoint with the client secret and no scope", () => {
    const google = readOAuthSettings({ ...BASE, OAUTH_PROVIDER: "google", OAUTH_CLIENT_SECRET: "secret-1" })!;
    expect(google).toMatchObject({ clientSecret: "secret-1", scope: undefined });
    expect(google.tokenUrl.href).toBe("https://oauth2.googleapis.com/token");
  });

  it("takes another provider's token URL instead of a preset", () => {
    expect(readOAuthSettings({ ...BASE, OAUTH_TOKEN_URL: "https://auth.example.org/token" })!.tokenUrl.host).toBe("auth.example.org");
  });

  it.each([
    [{ OAUTH_REFRESH_TOKEN: "r" }, /OAUTH_CLIENT_ID is missing/],
    [BASE, /OAUTH_PROVIDER is missing: set microsoft or google, or set OAUTH_TOKEN_URL/],
    [{ ...BASE, OAUTH_PROVIDER: "yahoo" }, /OAUTH_PROVIDER must be microsoft or google \(got "yahoo"\)/],
    [{ ...BASE, OAUTH_PROVIDER: "google" }, /OAUTH_CLIENT_SECRET is missing/],
    [{ ...BASE, OAUTH_PROVIDER: "microsoft", OAUTH_TENANT: "../evil" }, /OAUTH_TENANT must be/],
    [{ ...BASE, OAUTH_TOKEN_URL: "http://auth.example.org/token" }, /OAUTH_TOKEN_URL must start with https:\/\//],
    [{ ...BASE, OAUTH_TOKEN_URL: "https://u:p@auth.example.org/token" }, /must not carry a user name or password/],
    [{ ...BASE, OAUTH_TOKEN_URL: "auth.example.org" }, /OAUTH_TOKEN_URL is not a URL/],
    [{ ...BASE, OAUTH_PROVIDER: "microsoft", OAUTH_CLIENT_ID: "a\r\nb" }, /OAUTH_CLIENT_ID must not contain line breaks/],
  ])("names the credential that is wrong: %j", (values, expected) => {
    expect(() => readOAuthSettings(values)).toThrow(expected);
  });
});
