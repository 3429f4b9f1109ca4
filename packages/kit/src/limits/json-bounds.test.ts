import { describe, expect, it } from "vitest";
import { checkJsonBounds, type JsonBounds } from "./json-bounds.js";

const roomy: JsonBounds = { maxBytes: 1 << 20, maxValues: 1_000, maxDepth: 8 };
const scan = (text: string, bounds: Partial<JsonBounds> = {}) => checkJsonBounds(Buffer.from(text), { ...roomy, ...bounds }, "args_json", "echo");

describe("checkJsonBounds", () => {
  it("counts every value, the root included, and the deepest nesting", () => {
    expect(scan('{"a":1,"b":[true,null,"x"],"c":{}}')).toEqual({ bytes: 34, values: 7, depth: 2, nulls: true });
    expect(scan("{}")).toMatchObject({ values: 1, depth: 1 });
    expect(scan(" [ ] ")).toMatchObject({ values: 1, depth: 1 });
    expect(scan("")).toMatchObject({ values: 0, depth: 0 });
  });

  it("ignores brackets, commas and escaped quotes inside strings", () => {
    expect(scan(String.raw`{"t":"[{,}] \" ,[ \\","u":"\\\\"}`)).toMatchObject({ values: 3, depth: 1 });
  });

  it("refuses text over the byte bound before looking at it, naming the sizes and what to do", () => {
    expect(() => scan(`{"t":"${"x".repeat(2048)}"}`, { maxBytes: 1024 })).toThrow(
      "args_json is 2.0 KiB, over the 1 KiB echo accepts; pass large content as a file (an artifact in attachments) or split the work into several calls",
    );
  });

  it("refuses many small objects (the 2 MiB heap exhaustion of issue 10)", () => {
    const text = `{"text":[${Array(2_000).fill("{}").join(",")}]}`;
    expect(() => scan(text)).toThrow(/^args_json holds more than 1,000 values \(items, fields, numbers and strings together\), the most echo accepts in one call; send fewer items/);
  });

  it("refuses nesting deeper than the bound, however small the text", () => {
    expect(() => scan(`${"[".repeat(9)}${"]".repeat(9)}`)).toThrow("args_json nests objects and arrays deeper than 8 levels, the most echo accepts; flatten the arguments");
    expect(scan(`${"[".repeat(8)}${"]".repeat(8)}`)).toMatchObject({ depth: 8 });
  });

  it("stops at an unterminated string without reading past the end", () => {
    expect(scan('{"t":"abc')).toMatchObject({ values: 2, depth: 1 });
  });

  it("tells whether a null occurs outside strings, so null-free arguments skip the walk for optional nulls", () => {
    expect(scan('{"a":null}')).toMatchObject({ nulls: true });
    expect(scan('{"a":[1,{"b" : null}]}')).toMatchObject({ nulls: true });
    expect(scan('{"null":"null","n":true,"f":false,"x":-1e5}')).toMatchObject({ nulls: false });
  });

  it("reads 16 MiB of escaped quotes as one string", () => {
    const text = Buffer.concat([Buffer.from('["'), Buffer.alloc(16 << 20, '\\"'), Buffer.from('",1]')]);
    expect(checkJsonBounds(text, { maxBytes: 17 << 20, maxValues: 10, maxDepth: 8 }, "args_json", "echo")).toMatchObject({ values: 3, depth: 1 });
  });
});
