import { describe, expect, it } from "vitest";
import { closestKey, editDistance } from "./suggest.js";

const TOOL_KEYS = ["name", "description", "input_schema", "recommended_policy", "terminal_on_success", "requires_confirmation"];

describe("closestKey", () => {
  it.each([
    ["recommend_policy", "recommended_policy"],
    ["descripton", "description"],
    ["inputSchema", "input_schema"],
    ["input-schema", "input_schema"],
    ["Name", "name"],
    ["policy", "recommended_policy"],
    ["terminal", "terminal_on_success"],
    ["confirmation", "requires_confirmation"],
  ])("suggests %j -> %j", (key, expected) => expect(closestKey(key, TOOL_KEYS)).toBe(expected));

  it.each(["version", "xyz", "timeout"])("suggests nothing for %j, which is close to no key", (key) => {
    expect(closestKey(key, TOOL_KEYS)).toBeUndefined();
  });
});

describe("editDistance", () => {
  it("counts insertions, deletions and substitutions", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
  });
});
