import { ToolError } from "@selu-catalogue/kit";
import { describe, expect, it } from "vitest";
import { maskTokens } from "./mask-tokens.js";

const TOKEN = "EwBwA8l6BAAU-access-token-7f3c";
const USER = "alice@outlook.com";

describe("maskTokens", () => {
  it("masks an access token a server quotes as is, keeping a ToolError a ToolError", () => {
    const err = new ToolError(`SMTP login failed: the server said "535 bad token ${TOKEN}"`, { cause: new Error(TOKEN) });
    const masked = maskTokens(err, new Set([TOKEN]), USER) as ToolError;
    expect(masked).toBeInstanceOf(ToolError);
    expect(masked.message).toBe('SMTP login failed: the server said "535 bad token [redacted]"');
    expect(masked.cause).toBeUndefined();
    expect(masked.stack).not.toContain(TOKEN);
  });

  it("masks the XOAUTH2 string that carries the token in base64", () => {
    const sasl = Buffer.from(`user=${USER}\x01auth=Bearer ${TOKEN}\x01\x01`).toString("base64");
    const masked = maskTokens(new Error(`unexpected reply to AUTH XOAUTH2 ${sasl}`), new Set([TOKEN]), USER) as Error;
    expect(masked.message).toBe("unexpected reply to AUTH XOAUTH2 [redacted]");
  });

  it("returns the error itself when it holds no token", () => {
    const err = new ToolError("the connection was lost");
    expect(maskTokens(err, new Set([TOKEN]), USER)).toBe(err);
  });
});
