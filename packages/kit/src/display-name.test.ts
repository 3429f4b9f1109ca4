import { describe, expect, it } from "vitest";
import { displayName, toolDisplayNames } from "./display-name.js";

describe("toolDisplayNames", () => {
  it("keeps the acronyms the tool descriptions write in capitals", () => {
    const names = toolDisplayNames([
      { name: "merge_pdfs", description: "Merges PDFs into one PDF file." },
      { name: "create_pdf_document", description: "Creates a document." },
      { name: "list-mailboxes", description: "Lists folders over IMAP SEARCH." },
    ]);
    expect([...names.values()]).toEqual(["Merge PDFs", "Create PDF document", "List mailboxes"]);
  });

  it("ignores long capital words and words glued to other text", () => {
    expect(toolDisplayNames([{ name: "send_search", description: "Runs IMAP SEARCH on xPDF." }]).get("send_search")).toBe("Send search");
  });
});

describe("displayName", () => {
  it("turns snake and kebab case into a sentence", () => {
    expect(displayName("web-search", new Map())).toBe("Web search");
    expect(displayName("merge_pdfs", new Map([["pdfs", "PDFs"]]))).toBe("Merge PDFs");
    expect(displayName("get__message_", new Map())).toBe("Get message");
  });
});
