import { describe, expect, it } from "vitest";
import { htmlToText } from "./html-text.js";

describe("htmlToText", () => {
  it("keeps text and links of ordinary mail", async () => {
    expect(await htmlToText('<p>Viele <b>Grüße</b> <a href="https://example.de/x">hier</a></p>')).toBe("Viele Grüße hier [https://example.de/x]");
  });

  it("survives hostile nesting quickly, keeping the text", async () => {
    expect(await htmlToText(`${"<div>".repeat(2_000)}deep text`)).toBe("deep text");
    expect(await htmlToText(`${"<b>".repeat(200_000)}tail`)).toBe(""); // cut at 256 KiB, before the text
    expect(await htmlToText(`${"<div>".repeat(400_000)}`)).toBe("");
  });
});
