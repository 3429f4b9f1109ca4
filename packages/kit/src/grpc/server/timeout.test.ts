import { describe, expect, it } from "vitest";
import { parseGrpcTimeout } from "./timeout.js";

describe("parseGrpcTimeout", () => {
  it("reads every unit of the protocol, rounding up to whole milliseconds", () => {
    expect(["1H", "2M", "3S", "250m", "1500u", "1n"].map(parseGrpcTimeout)).toEqual([3_600_000, 120_000, 3_000, 250, 2, 1]);
  });

  it("caps a timeout longer than a timer can wait", () => {
    expect(parseGrpcTimeout("99999999H")).toBe(2 ** 31 - 1);
  });

  it("refuses more than 8 digits, no unit, a sign or spaces", () => {
    expect(["123456789S", "100", "-1S", " 1S", "1s", ""].map(parseGrpcTimeout)).toEqual(Array(6).fill(undefined));
  });
});
