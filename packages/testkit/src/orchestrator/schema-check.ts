import { isSeluInteger, isSeluNumber, JsonFloat } from "./selu-json.js";

/**
 * The subset of JSON Schema the Selu orchestrator checks tool arguments against before dispatch
 * (`validate_value_against_schema` in its tool loop): a string `type`, `required`, `properties` and `items`,
 * nothing else (no formats, bounds, enums; a `type` array and `"null"` are not checked). `null` counts as
 * missing for a required field, and a `null` value of any property is not checked at all, so
 * `{"subject": null}` reaches the capability. An integer must be written without a fraction (`3.0` is a
 * float: parse the model's text with `parseSeluJson` to keep that apart). Properties are checked in key order.
 * Returns the first violation in Selu's words (`$.name expected string`, `$.name is required`), or undefined.
 */
export function checkSeluSchema(value: unknown, schema: unknown, path = "$"): string | undefined {
  if (!isObject(schema)) return undefined;
  if (typeof schema.type === "string" && !hasType(value, schema.type)) return `${path} expected ${schema.type}`;
  if (isObject(value)) {
    if (Array.isArray(schema.required)) {
      for (const key of schema.required) {
        if (typeof key === "string" && (value[key] === undefined || value[key] === null)) return `${path}.${key} is required`;
      }
    }
    if (isObject(schema.properties)) {
      for (const key of Object.keys(schema.properties).sort()) {
        const child = value[key];
        if (child === undefined || child === null) continue;
        const problem = checkSeluSchema(child, schema.properties[key], `${path}.${key}`);
        if (problem) return problem;
      }
    }
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    for (let i = 0; i < value.length; i++) {
      const problem = checkSeluSchema(value[i], schema.items, `${path}[${i}]`);
      if (problem) return problem;
    }
  }
  return undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "object":
      return isObject(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return isSeluInteger(value);
    case "number":
      return isSeluNumber(value);
    default:
      return true;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof JsonFloat);
}
