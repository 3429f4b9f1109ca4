import { describe, expect, it } from "vitest";
import { filenameFrom } from "./filename.js";

describe("filenameFrom", () => {
  it("makes a plain file name from a title", () => {
    expect(filenameFrom("Q3 Report: Zürich & Genève")).toBe("q3-report-zurich-geneve.pdf");
    expect(filenameFrom("Отчёт за квартал")).toBe("отчет-за-квартал.pdf");
    expect(filenameFrom("!!!")).toBe("document.pdf");
    expect(filenameFrom("x".repeat(200))).toBe(`${"x".repeat(60)}.pdf`);
    expect(filenameFrom(`A ${"long ".repeat(20)}title`)).toBe(`a-${"long-".repeat(10)}long.pdf`);
  });

  it("keeps the marks of scripts whose words they spell: vowel signs, hamza, voicing marks", () => {
    expect(filenameFrom("भारतीय लिपियाँ")).toBe("भारतीय-लिपियाँ.pdf");
    expect(filenameFrom("தமிழ் அறிக்கை")).toBe("தமிழ்-அறிக்கை.pdf");
    expect(filenameFrom("ผู้รับผิดชอบ รายงาน")).toBe("ผู้รับผิดชอบ-รายงาน.pdf");
    expect(filenameFrom("تقرير الهيئة المؤقتة")).toBe("تقرير-الهيئة-المؤقتة.pdf");
    expect(filenameFrom("ガイドブック")).toBe("ガイドブック.pdf");
    expect(filenameFrom("한국어 보고서")).toBe("한국어-보고서.pdf");
    expect(filenameFrom("Ελληνικά: Café")).toBe("ελληνικα-cafe.pdf");
  });
});
