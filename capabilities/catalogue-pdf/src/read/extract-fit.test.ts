import { describe, expect, it } from "vitest";
import { fitExtract } from "./extract-text.js";

describe("fitExtract", () => {
  it("drops pages from the end until thousands of empty pages of scans fit Selu's result bound, and says so", () => {
    const pages = Array.from({ length: 10_000 }, (_, i) => ({ file: Math.floor(i / 500), page: (i % 500) + 1, text: "" }));
    const result = { files: Array.from({ length: 20 }, (_, i) => ({ filename: `scan-${i}.pdf`, total_pages: 500 })), pages, total_pages: 10_000, truncated: false };
    const fitted = fitExtract(result, 49_152);
    expect(Buffer.byteLength(JSON.stringify(fitted))).toBeLessThanOrEqual(49_152);
    expect(fitted.truncated).toBe(true);
    expect((fitted.pages as unknown[]).length).toBeGreaterThan(1_000);
    expect((fitted.pages as unknown[])[0]).toEqual({ file: 0, page: 1, text: "" });
    expect(fitted.total_pages).toBe(10_000);
  });
});
