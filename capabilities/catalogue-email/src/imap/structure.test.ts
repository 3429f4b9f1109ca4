import { describe, expect, it } from "vitest";
import { messageParts, safeFileName } from "./structure.js";

describe("messageParts", () => {
  it("takes the first plain and HTML alternatives as the body and the rest as attachments", () => {
    const parts = messageParts({
      type: "multipart/mixed",
      childNodes: [
        {
          part: "1",
          type: "multipart/alternative",
          childNodes: [
            { part: "1.1", type: "text/plain" },
            { part: "1.2", type: "text/html" },
          ],
        },
        { part: "2", type: "application/pdf", encoding: "base64", size: 780, disposition: "attachment", dispositionParameters: { filename: "a.pdf" } },
        { part: "3", type: "image/png", id: "<logo>", parameters: { name: "logo.png" } },
        { part: "4", type: "text/plain", disposition: "attachment" },
        { part: "5", type: "message/rfc822", childNodes: [{ part: "5.1", type: "text/plain" }] },
      ],
    });
    expect(parts.text?.part).toBe("1.1");
    expect(parts.html?.part).toBe("1.2");
    expect(parts.attachments).toEqual([
      { attachment_id: "2", filename: "a.pdf", mime_type: "application/pdf", size_bytes: 570, inline: false },
      { attachment_id: "3", filename: "logo.png", mime_type: "image/png", size_bytes: 0, inline: true },
      { attachment_id: "4", filename: "attachment-4.bin", mime_type: "text/plain", size_bytes: 0, inline: false },
      { attachment_id: "5", filename: "attachment-5.eml", mime_type: "message/rfc822", size_bytes: 0, inline: false },
    ]);
  });

  it("reads a single-part message as part 1", () => {
    expect(messageParts({ type: "text/plain" }).text).toMatchObject({ type: "text/plain" });
  });
});

describe("safeFileName (names from received mail are untrusted)", () => {
  it.each([
    ["../../etc/passwd", "passwd"],
    ["C:\\Users\\x\\evil.exe", "evil.exe"],
    ["report\r\n.pdf", "report.pdf"],
    ["invoice\u202Efdp.exe", "invoicefdp.exe"],
    ["a\u0085b\u2028c\u200Bd.txt", "abcd.txt"],
    ["..", "attachment-2.bin"],
    ["", "attachment-2.bin"],
  ])("strips directories and control characters: %j", (name, expected) => {
    expect(safeFileName(name, "2", "application/octet-stream")).toBe(expected);
  });
});
