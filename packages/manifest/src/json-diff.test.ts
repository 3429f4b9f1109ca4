import { describe, expect, it } from "vitest";
import { firstDifference } from "./json-diff.js";

describe("firstDifference", () => {
  it("finds none between equal values, whatever the key order", () => {
    expect(firstDifference({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBeUndefined();
  });

  it("points at the first differing leaf", () => {
    expect(firstDifference({ p: { a: { type: "string" } } }, { p: { a: { type: "number" } } }, ["s"])).toEqual({
      keyPath: ["s", "p", "a", "type"],
      left: "string",
      right: "number",
    });
  });

  it("points at a key only one side has", () => {
    expect(firstDifference({ a: 1 }, { a: 1, b: 2 })).toEqual({ keyPath: ["b"], left: undefined, right: 2 });
    expect(firstDifference({ a: 1, b: 2 }, { a: 1 })).toEqual({ keyPath: ["b"], left: 2, right: undefined });
  });

  it("compares lists in order, and points at the first extra item", () => {
    expect(firstDifference(["a", "b"], ["b", "a"])).toMatchObject({ keyPath: [0] });
    expect(firstDifference(["a"], ["a", "b"])).toEqual({ keyPath: [1], left: undefined, right: "b" });
  });

  it("tells a list from a mapping and a number from its string", () => {
    expect(firstDifference([], {})).toMatchObject({ keyPath: [] });
    expect(firstDifference({ n: 1 }, { n: "1" })).toMatchObject({ keyPath: ["n"] });
  });
});
