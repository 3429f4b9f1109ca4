import { describe, expect, it } from "vitest";
import { checkCatalogueRules } from "./catalogue-rules.js";

describe("checkCatalogueRules (ready for the rename; not wired into checkManifestRules yet)", () => {
  it("passes a renamed capability whose qualified tool names fit", () => {
    expect(checkCatalogueRules({ id: "catalogue-pdf", tools: [{ name: "create_pdf_document" }] as never })).toEqual([]);
  });

  it("reports a first-party id at id, and a qualified tool name over 64 characters at its tool", () => {
    const problems = checkCatalogueRules({ id: "pdf", tools: [{ name: "a".repeat(60) }] as never });
    expect(problems.map((p) => p.path)).toEqual(["id", "tools[0].name"]);
  });
});
