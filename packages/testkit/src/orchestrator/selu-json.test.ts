import { describe, expect, it } from "vitest";
import { JsonFloat, parseSeluJson, stringifySeluJson } from "./selu-json.js";

describe("JSON as serde_json reads and writes it", () => {
  it("keeps a number written with a fraction or an exponent as a float", () => {
    expect(parseSeluJson('{"a":3.0,"b":1e3,"c":3}')).toEqual({ a: new JsonFloat(3), b: new JsonFloat(1000), c: 3 });
  });

  it("takes an integer literal beyond u64 for a float", () => {
    expect(parseSeluJson("18446744073709551616")).toBeInstanceOf(JsonFloat);
    expect(parseSeluJson("18446744073709551615")).not.toBeInstanceOf(JsonFloat);
  });

  it("writes compactly with keys sorted by byte order, floats with a fraction", () => {
    expect(stringifySeluJson({ b: [1, new JsonFloat(2)], a: { z: null, y: "é" }, B: 1.5, skip: undefined })).toBe('{"B":1.5,"a":{"y":"é","z":null},"b":[1,2.0]}');
  });
});
