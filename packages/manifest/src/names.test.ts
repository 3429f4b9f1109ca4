import { describe, expect, it } from "vitest";
import { checkCapabilityId, checkCatalogueId, checkCredentialName, checkImageReference, checkQualifiedToolName, checkToolName } from "./names.js";

describe("checkCapabilityId", () => {
  it.each(["pdf", "pdf-tools", "web2-search", "a"])("accepts %j", (id) => expect(checkCapabilityId(id)).toBeUndefined());
  it.each(["", "a__b", "Pdf", "pdf_tools", "pdf.tools", "-pdf", "pdf-", "pdf--tools", "x".repeat(64)])("refuses %j", (id) => {
    expect(checkCapabilityId(id)).toEqual(expect.any(String));
  });
});

describe("checkToolName", () => {
  it.each(["echo", "create_pdf", "step2", "a1_b2"])("accepts %j", (name) => expect(checkToolName(name)).toBeUndefined());
  it.each(["", "Echo", "create-pdf", "create__pdf", "_private", "trailing_", "2fast", "do it"])("refuses %j", (name) => {
    expect(checkToolName(name)).toMatch(/is not a snake_case identifier/);
  });
});

describe("checkQualifiedToolName", () => {
  it("accepts exactly 64 characters and refuses 65", () => {
    expect(checkQualifiedToolName("ab", "x".repeat(60))).toBeUndefined();
    expect(checkQualifiedToolName("ab", "x".repeat(61))).toMatch(/\(65 characters\): expected at most 64/);
  });
});

describe("checkCredentialName", () => {
  it.each(["API_KEY", "TOKEN", "S3_SECRET"])("accepts %j", (name) => expect(checkCredentialName(name)).toBeUndefined());
  it.each(["api_key", "ApiKey", "API__KEY", "_KEY", "API-KEY"])("refuses %j", (name) => expect(checkCredentialName(name)).toMatch(/UPPER_SNAKE_CASE/));
});

describe("checkImageReference", () => {
  it.each(["ghcr.io/owner/selu-cap-pdf:1.0.0", "localhost:5000/pdf:dev", "pdf:1", `ghcr.io/owner/pdf@sha256:${"a".repeat(64)}`])("accepts %j", (image) =>
    expect(checkImageReference(image)).toBeUndefined(),
  );

  it.each([
    ["", /must not be empty/],
    ["ghcr.io/owner/selu-cap-pdf", /has no tag/],
    ["localhost:5000/pdf", /has no tag/],
    ["ghcr.io/Owner/pdf:1", /is not a Docker image reference/],
    ["https://ghcr.io/owner/pdf:1", /has a URL scheme/],
  ])("refuses %j", (image, expected) => expect(checkImageReference(image)).toMatch(expected));
});

describe("checkCatalogueId", () => {
  it.each(["catalogue-pdf", "catalogue-email", "catalogue-web-search"])("accepts %j", (id) => {
    expect(checkCatalogueId(id)).toBeUndefined();
  });

  it.each(["pdf", "web", "weather", "pim-icloud", "github-coding", "iserv", "schulessen", "bring-shopping"])("refuses the first-party Selu id %j, which would collide across agents", (id) => {
    expect(checkCatalogueId(id)).toBe(`"${id}" is a first-party Selu capability id: capability ids are global across installed agents, so it would collide; use catalogue-${id}`);
  });

  it.each([["email"], ["example"], ["catalogue-"], ["my-catalogue-pdf"]])("refuses %j, which lacks the catalogue- prefix or a name after it", (id) => {
    expect(checkCatalogueId(id)).toMatch(/does not follow the catalogue's id rule: expected catalogue-<name>/);
  });
});
