import { describe, expect, it } from "vitest";
import { ownMemory } from "./own-memory.js";

describe("ownMemory", () => {
  it("copies a buffer Node took from its shared slab into memory of its own size", () => {
    const pooled = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(13_000, 1)]);
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.byteLength);
    const own = ownMemory(pooled);
    expect(own.buffer.byteLength).toBe(pooled.byteLength);
    expect(own.equals(pooled)).toBe(true);
  });

  it("copies a view into a larger buffer", () => {
    const view = Buffer.alloc(30_000, 2).subarray(1_000, 2_000);
    const own = ownMemory(view);
    expect(own.buffer.byteLength).toBe(1_000);
    expect(own.equals(view)).toBe(true);
  });

  it("keeps a buffer that is all of its memory as it is, and wraps such a Uint8Array without copying", () => {
    const whole = Buffer.allocUnsafeSlow(5_000);
    expect(ownMemory(whole)).toBe(whole);
    const array = new Uint8Array([1, 2, 3]);
    const wrapped = ownMemory(array);
    expect(Buffer.isBuffer(wrapped)).toBe(true);
    expect(wrapped.buffer).toBe(array.buffer);
  });
});
