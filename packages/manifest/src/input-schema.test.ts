import { describe, expect, it } from "vitest";
import { checkInputSchema } from "./input-schema.js";
import { lines } from "./test-fixtures.js";

const check = (schema: Record<string, unknown>) => lines(checkInputSchema(schema, ["tools", 0, "input_schema"]));
const attachments = {
  type: "array",
  items: { type: "object", properties: { artifact_id: { type: "string" } }, required: ["artifact_id"] },
};

describe("checkInputSchema: the keywords Selu validates arguments with", () => {
  it("accepts an object schema with nested properties, items and type lists", () => {
    const schema = {
      type: "object",
      properties: { tags: { type: "array", items: { type: ["string", "null"] } }, any: {}, never: false },
      required: ["tags"],
      additionalProperties: false,
    };
    expect(check(schema)).toEqual([]);
  });

  it("requires type: object at the root", () => {
    expect(check({ properties: {} })).toEqual(['tools[0].input_schema.type: is nothing: expected "object" (Selu passes arguments as one JSON object)']);
  });

  it("refuses an unknown type name, deep inside", () => {
    expect(check({ type: "object", properties: { a: { type: "array", items: { type: "text" } } } })).toEqual([
      'tools[0].input_schema.properties.a.items.type: is "text": expected one of string, number, integer, boolean, object, array, null (or a list of them)',
    ]);
  });

  it("refuses properties that aren't a mapping of schemas", () => {
    expect(check({ type: "object", properties: ["a"] })).toEqual(['tools[0].input_schema.properties: is ["a"]: expected a mapping of property schemas']);
    expect(check({ type: "object", properties: { a: "string" } })).toEqual(['tools[0].input_schema.properties.a: is "string": expected a schema (a mapping)']);
  });

  it("refuses required that isn't a list of names, lists a name twice, or names a missing property", () => {
    expect(check({ type: "object", required: "a" })).toEqual(['tools[0].input_schema.required: is "a": expected a list of property names']);
    expect(check({ type: "object", properties: { a: {} }, required: ["a", "a", "b"] })).toEqual([
      'tools[0].input_schema.required[1]: lists "a" twice',
      `tools[0].input_schema.required[2]: lists "b", which is not in properties: the model can't know what to send`,
    ]);
  });

  it("refuses tuple items, which Selu doesn't read", () => {
    expect(check({ type: "object", properties: { a: { type: "array", items: [{ type: "string" }] } } })).toEqual([
      "tools[0].input_schema.properties.a.items: is a list: expected one schema for every item (Selu does not read tuple items)",
    ]);
  });

  it("refuses an argument Selu strips before the call", () => {
    expect(check({ type: "object", properties: { _approval_message: { type: "string" } } })).toEqual([
      "tools[0].input_schema.properties._approval_message: Selu strips this argument before the call, so the tool never receives it",
    ]);
  });
});

describe("checkInputSchema: attachments, the one argument Selu uploads files from", () => {
  it("accepts an array of objects with a required string artifact_id", () => {
    expect(check({ type: "object", properties: { attachments }, required: ["attachments"] })).toEqual([]);
  });

  it("refuses attachments that aren't an array", () => {
    expect(check({ type: "object", properties: { attachments: { type: "string" } } })).toEqual([
      expect.stringMatching(/^tools\[0\]\.input_schema\.properties\.attachments: is not an array schema: expected \{type: array/),
    ]);
  });

  it("refuses an array of strings", () => {
    expect(check({ type: "object", properties: { attachments: { type: "array", items: { type: "string" } } } })).toEqual([
      expect.stringMatching(/^tools\[0\]\.input_schema\.properties\.attachments\.items: is not an object schema/),
    ]);
  });

  it("refuses elements without artifact_id (e.g. capability_artifact_id, which the tool reads but the model can't know)", () => {
    const wrong = { type: "array", items: { type: "object", properties: { capability_artifact_id: { type: "string" } } } };
    expect(check({ type: "object", properties: { attachments: wrong } })).toEqual([
      expect.stringMatching(/^tools\[0\]\.input_schema\.properties\.attachments\.items\.properties\.artifact_id: is missing or not type string/),
    ]);
  });

  it("refuses elements where artifact_id is optional", () => {
    const optional = { ...attachments, items: { ...attachments.items, required: [] } };
    expect(check({ type: "object", properties: { attachments: optional } })).toEqual([
      "tools[0].input_schema.properties.attachments.items.required: does not list artifact_id: an element without it reaches the tool without its file",
    ]);
  });
});
