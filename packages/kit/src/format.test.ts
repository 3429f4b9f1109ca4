import { describe, expect, it } from "vitest";
import { formatCount } from "./format.js";

describe("formatCount", () => {
  it("groups thousands as English does", () => {
    for (const n of [0, 7, 999, 1000, 20000, 123456, 1234567, 16777216, -4500, 2 ** 53]) expect(formatCount(n)).toBe(n.toLocaleString("en"));
  });

  it("keeps a fraction as written", () => {
    expect(formatCount(12345.5)).toBe("12,345.5");
  });
});
