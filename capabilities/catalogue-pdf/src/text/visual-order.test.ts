import { describe, expect, it } from "vitest";
import { reordered } from "./visual-order.js";

describe("reordered (UAX #9, L2)", () => {
  it("reverses a right-to-left line and keeps a number inside it left to right", () => {
    // Levels of "abc 12" in a right-to-left paragraph: letters 1, space 1, digits 2.
    expect(reordered(Uint8Array.from([1, 1, 1, 1, 2, 2]), 0, 6)).toEqual([4, 5, 3, 2, 1, 0]);
  });

  it("leaves a left-to-right line alone and reverses only its right-to-left stretch", () => {
    expect(reordered(Uint8Array.from([0, 0, 1, 1, 1, 0]), 0, 6)).toEqual([0, 1, 4, 3, 2, 5]);
  });

  it("orders only the given line of a longer text", () => {
    expect(reordered(Uint8Array.from([1, 1, 1, 1, 1, 1]), 3, 6)).toEqual([5, 4, 3]);
  });
});
