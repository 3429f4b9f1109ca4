import { describe, expect, it } from "vitest";
import { healthKey, parseRetryAfter } from "./provider-error.js";

describe("parseRetryAfter", () => {
  it("reads delay-seconds and HTTP dates", () => {
    expect(parseRetryAfter("3")).toBe(3_000);
    const now = Date.parse("2026-11-23T10:00:00Z");
    expect(parseRetryAfter("Mon, 23 Nov 2026 10:00:05 GMT", now)).toBe(5_000);
    expect(parseRetryAfter("Mon, 23 Nov 2026 09:00:00 GMT", now)).toBe(0);
  });

  it("returns undefined for an absent or unreadable value", () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter("-1")).toBeUndefined();
  });
});

describe("healthKey", () => {
  it("tells keys apart without containing them", () => {
    expect(healthKey("brave", "secret-a")).not.toBe(healthKey("brave", "secret-b"));
    expect(healthKey("brave", "secret-a")).not.toContain("secret");
  });
});
