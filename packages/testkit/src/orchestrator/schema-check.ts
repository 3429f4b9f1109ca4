/**
 * The subset of JSON Schema the Selu orchestrator checks tool arguments against before dispatch:
 * `type`, `required`, `properties` and `items`, nothing else (no formats, bounds or enums).
 * Returns the first violation as text, or undefined.
 */
export function checkSeluSchema(value: unknown, schema: unknown, path = "args"): string | undefined {
  if (!isObject(schema)) return undefined;
  const type = schema.type;
  if (typeof type === "string" && !hasType(value, type)) return `${path}: expected ${type}`;
  if (Array.isArray(type) && !type.some((t) => typeof t === "string" && hasType(value, t))) {
    return `${path}: expected ${type.join(" or ")}`;
  }
  if (isObject(value)) {
    if (Array.isArray(schema.required)) {
      for (const key of schema.required) {
        if (typeof key === "string" && !(key in value)) return `${path}.${key}: required`;
      }
    }
    if (isObject(schema.properties)) {
      for (const [key, sub] of Object.entries(schema.properties)) {
        if (!(key in value)) continue;
        const problem = checkSeluSchema(value[key], sub, `${path}.${key}`);
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
    case "number":
      return typeof value === "number";
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    default:
      return true;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
