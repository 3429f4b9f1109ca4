import { describe, expect, it } from "vitest";
import { newArtifactId } from "./artifact-id.js";

describe("newArtifactId", () => {
  it("gives 32 hex digits, never the same twice, across draws of the random bytes", () => {
    const ids = Array.from({ length: 1_000 }, () => newArtifactId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("uses each digit position evenly (the bits are random, not a counter)", () => {
    const ones = new Array<number>(128).fill(0);
    const n = 2_000;
    for (let i = 0; i < n; i++) {
      const bytes = Buffer.from(newArtifactId(), "hex");
      for (let bit = 0; bit < 128; bit++) ones[bit]! += (bytes[bit >> 3]! >> (bit & 7)) & 1;
    }
    // Each bit is set in about half the ids: 1,000 ± 5 standard deviations (22 each).
    for (const count of ones) expect(Math.abs(count - n / 2)).toBeLessThan(112);
  });
});
