import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { pdfText } from "./pdf-text.js";

const tideReport = readFileSync(new URL("../../test/fixtures/pages/tide-report.pdf", import.meta.url));

describe("pdfText", () => {
  it("loads pdf.js and reads a PDF without replacing or writing to the global console (issue 11 item 4)", async () => {
    const warn = vi.fn();
    const replaced: unknown[] = [];
    const original = Object.getOwnPropertyDescriptor(console, "warn")!;
    Object.defineProperty(console, "warn", { configurable: true, get: () => warn, set: (value: unknown) => replaced.push(value) });
    try {
      const pdf = await pdfText(tideReport, 10_000, new AbortController().signal);
      expect(pdf.pages).toBe(2);
      expect(pdf.text.length).toBeGreaterThan(0);
    } finally {
      Object.defineProperty(console, "warn", original);
    }
    expect(replaced).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });
});
