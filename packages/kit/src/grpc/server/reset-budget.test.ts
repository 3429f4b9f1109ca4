import { describe, expect, it } from "vitest";
import { ResetBudget } from "./reset-budget.ts";

describe("ResetBudget", () => {
  it("allows the burst, then the rate, and no more", () => {
    let now = 0;
    const budget = new ResetBudget(3, 2, () => now);
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
    now = 500; // half a second: one more
    expect([budget.take(), budget.take()]).toEqual([true, false]);
    now = 60_000; // a long quiet refills to the burst, not past it
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
  });
});
