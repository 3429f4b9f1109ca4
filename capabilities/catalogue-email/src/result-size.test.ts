import { describe, expect, it } from "vitest";
import { capList, capText, fitPage } from "./result-size.js";

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

describe("fitPage", () => {
  it("drops messages from the end until the page fits, and continues at the first one dropped", () => {
    const message = (i: number) => ({ uid: i, from: "Ж".repeat(200), to: Array(5).fill("Ж".repeat(200)), subject: "Ж".repeat(200) });
    const page = { mailbox: "INBOX", total: 500, offset: 100, messages: Array.from({ length: 50 }, (_, i) => message(i)), next_offset: 150 };
    const fitted = fitPage(page, 49_152);
    expect(Buffer.byteLength(JSON.stringify(fitted))).toBeLessThanOrEqual(49_152);
    const kept = fitted.messages as unknown[];
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.length).toBeLessThan(50);
    expect(fitted.next_offset).toBe(100 + kept.length);
    expect(kept.at(-1)).toEqual(message(kept.length - 1));
  });
});
