import { deflateSync, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { deflate, MIN_DEFLATED, streamBytes } from "./deflate.js";

describe("deflate", () => {
  it("gives back the input, as small as zlib's default tables make it, from a few bytes to past the largest window", () => {
    const line = "BT /F1 10.5 Tf 1 0 0 1 56 700.25 Tm [<00120034005600780009> -12 <00ab00cd>] TJ ET\n";
    for (const length of [0, 1, 200, 5_000, 40_000, 120_000]) {
      const input = Buffer.from(line.repeat(Math.ceil(length / line.length) + 1).slice(0, length), "latin1");
      const output = deflate(input);
      expect(inflateSync(output).equals(input)).toBe(true);
      expect(output.length).toBeLessThanOrEqual(deflateSync(input).length);
    }
  });

  it("takes a string as UTF-8, as zlib does", () => {
    expect(inflateSync(deflate("Grüße")).toString("utf8")).toBe("Grüße");
  });

  it("leaves a short stream as it is, and deflates a longer one", () => {
    const short = Buffer.alloc(MIN_DEFLATED - 1, "a");
    expect(streamBytes(short)).toEqual({ data: short, filter: "" });
    const long = Buffer.alloc(MIN_DEFLATED, "a");
    const { data, filter } = streamBytes(long);
    expect(filter).toBe(" /Filter /FlateDecode");
    expect(inflateSync(data).equals(long)).toBe(true);
  });
});
