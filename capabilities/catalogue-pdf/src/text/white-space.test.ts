import { describe, expect, it } from "vitest";
import { isSpace } from "./white-space.js";

describe("isSpace", () => {
  it("is true of exactly the code units a regular expression's \\s matches", () => {
    const differ: number[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) if (isSpace(unit) !== /\s/u.test(String.fromCharCode(unit))) differ.push(unit);
    expect(differ).toEqual([]);
  });
});
