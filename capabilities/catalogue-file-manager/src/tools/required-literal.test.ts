import { describe, expect, it } from "vitest";
import { requiredLiteral } from "./required-literal.js";

describe("requiredLiteral", () => {
  it("finds the longest run every match contains", () => {
    expect(requiredLiteral("NEEDLE-[0-9a-f]+ found")).toBe("NEEDLE-");
    expect(requiredLiteral("^export function \\w+\\(")).toBe("export function ");
    expect(requiredLiteral("a\\.b\\.com")).toBe("a.b.com");
  });

  it("leaves out optional characters and groups", () => {
    expect(requiredLiteral("colou?r")).toBe("colo");
    expect(requiredLiteral("ab*cdef")).toBe("cdef");
    expect(requiredLiteral("x(abc)?yz")).toBe("yz");
    expect(requiredLiteral("abc{0,2}de")).toBe("ab");
  });

  it("has none for top-level alternatives or patterns without two plain characters", () => {
    expect(requiredLiteral("foo|bar")).toBeUndefined();
    expect(requiredLiteral("\\d+\\s\\w")).toBeUndefined();
    expect(requiredLiteral("[abc]x")).toBeUndefined();
  });
});
