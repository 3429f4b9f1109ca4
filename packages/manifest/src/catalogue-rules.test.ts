import { describe, expect, it } from "vitest";
import { checkCatalogueRules } from "./catalogue-rules.js";

describe("checkCatalogueRules (ready for the rename; not wired into checkManifestRules yet)", () => {
  it("passes a renamed capability", () => {
    expect(checkCatalogueRules({ id: "catalogue-pdf" })).toEqual([]);
  });

  it("reports a first-party id at id, as a rule problem", () => {
    expect(checkCatalogueRules({ id: "pdf" })).toEqual([expect.objectContaining({ kind: "rule", path: "id", message: expect.stringContaining("first-party Selu capability id") })]);
  });
});
