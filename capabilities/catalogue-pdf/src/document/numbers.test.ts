import { describe, expect, it } from "vitest";
import { NO_NUMBER, NUMBER } from "./numbers.js";

describe("NUMBER", () => {
  it("takes amounts with any currency sign, or a currency code after them, counts, dates, times, percentages and ranges", () => {
    for (const cell of ["1,200.50", "$5", "€ 12", "12 €", "₿ 0.25", "₾ 2.70", "140 ₼", "₹1,00,000", "1'200 CHF", "(3.5)", "−4", "12%", "2026-11-27", "10:30", "3–5"]) {
      expect(NUMBER.test(cell), cell).toBe(true);
    }
  });

  it("leaves words, codes and mixed text alone", () => {
    for (const cell of ["Total", "A-12", "v2", "12 apples", "₿"]) expect(NUMBER.test(cell), cell).toBe(false);
    expect(NO_NUMBER.test("n/a")).toBe(true);
  });
});
