import { describe, expect, it } from "vitest";
import { checkCapabilityId, checkCredentialName, checkImageReference, checkQualifiedToolName, checkToolName } from "./names.js";

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
  it.each([
    "ghcr.io/owner/selu-cap-pdf:1.0.0",
    "localhost:5000/pdf:dev",
    "pdf:1",
    `ghcr.io/owner/pdf@sha256:${"a".repeat(64)}`,
  ])("accepts %j", (image) => expect(checkImageReference(image)).toBeUndefined());

  it.each([
    ["", /must not be empty/],
    ["ghcr.io/owner/selu-cap-pdf", /has no tag/],
    ["localhost:5000/pdf", /has no tag/],
    ["ghcr.io/Owner/pdf:1", /is not a Docker image reference/],
    ["https://ghcr.io/owner/pdf:1", /has a URL scheme/],
  ])("refuses %j", (image, expected) => expect(checkImageReference(image)).toMatch(expected));
});
