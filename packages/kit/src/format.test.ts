import { describe, expect, it } from "vitest";
import { formatCount, formatIsoTime } from "./format.js";

describe("formatCount", () => {
  it("groups thousands as English does", () => {
    for (const n of [0, 7, 999, 1000, 20000, 123456, 1234567, 16777216, -4500, 2 ** 53]) expect(formatCount(n)).toBe(n.toLocaleString("en"));
  });

  it("keeps a fraction as written", () => {
    expect(formatCount(12345.5)).toBe("12,345.5");
  });
});

describe("formatIsoTime", () => {
  it("writes a time as toISOString does, from a Date or milliseconds", () => {
    const times = [0, 1, 999, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(5, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(2026, 10, 23, 9, 30, 7, 40)];
    for (let i = 0; i < 500; i++) times.push(Math.floor(Math.random() * Date.UTC(9999, 0, 1)));
    for (const time of times) {
      expect(formatIsoTime(time)).toBe(new Date(time).toISOString());
      expect(formatIsoTime(new Date(time))).toBe(new Date(time).toISOString());
    }
  });
});
