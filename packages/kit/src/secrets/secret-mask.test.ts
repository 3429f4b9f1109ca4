import { describe, expect, it } from "vitest";
import { SecretMask } from "./secret-mask.js";

describe("SecretMask", () => {
  it("builds its pattern once per new value, not for every line it masks", () => {
    const mask = new SecretMask();
    expect(mask.pattern()).toBeUndefined();
    mask.remember(["first-secret", undefined, ""]);
    const first = mask.pattern();
    expect("x first-secret y".replace(first!, "[redacted]")).toBe("x [redacted] y");
    expect(mask.pattern()).toBe(first);
    mask.remember(["first-secret"]);
    expect(mask.pattern()).toBe(first);
    mask.remember(["second-secret"]);
    const second = mask.pattern();
    expect(second).not.toBe(first);
    expect("first-secret second-secret".replace(second!, "[redacted]")).toBe("[redacted] [redacted]");
  });

  it("remembers at most 256 values, forgetting the oldest first", () => {
    const mask = new SecretMask();
    mask.remember(Array.from({ length: 257 }, (_, i) => `secret-value-${i}`));
    const pattern = mask.pattern()!;
    expect("secret-value-0".replace(pattern, "[redacted]")).toBe("secret-value-0");
    expect("secret-value-256".replace(pattern, "[redacted]")).toBe("[redacted]");
  });
});
