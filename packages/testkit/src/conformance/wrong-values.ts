/** A value of the wrong JSON type for a JSON Schema `type`, to check a tool names the field it refuses. */
export function wrongValueFor(schema: unknown): unknown {
  const type = typeof schema === "object" && schema !== null ? (schema as { type?: unknown }).type : undefined;
  switch (Array.isArray(type) ? type[0] : type) {
    case "string":
      return 12345;
    case "number":
    case "integer":
      return "not a number";
    case "boolean":
      return "not a boolean";
    case "array":
      return "not an array";
    case "object":
      return "not an object";
    default:
      return undefined;
  }
}
