import { describe, expect, it } from "vitest";
import { filenameFrom } from "./filename.js";

describe("filenameFrom", () => {
  it("makes a plain file name from a title", () => {
    expect(filenameFrom("Q3 Report: Zürich & Genève")).toBe("q3-report-zurich-geneve.pdf");
    expect(filenameFrom("Отчёт за квартал")).toBe("отчет-за-квартал.pdf");
    expect(filenameFrom("!!!")).toBe("document.pdf");
    expect(filenameFrom("x".repeat(200))).toBe(`${"x".repeat(60)}.pdf`);
  });
});
