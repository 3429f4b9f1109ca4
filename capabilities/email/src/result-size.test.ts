import { describe, expect, it } from "vitest";
import { capList, capText } from "./result-size.js";

describe("result size caps", () => {
  it("keeps short lists and says how many were left out of long ones", () => {
    expect(capList(["a", "b"], 2)).toEqual(["a", "b"]);
    expect(capList(["a", "b", "c", "d"], 2)).toEqual(["a", "b", "… and 2 more"]);
  });

  it("cuts long text with an ellipsis", () => {
    expect(capText("abc", 3)).toBe("abc");
    expect(capText("abcdef", 4)).toBe("abc…");
  });
});
