import { type KeyPath, type ManifestProblem, preview, problem } from "./problem.js";

// Selu checks a tool's arguments against a small subset of JSON Schema before dispatch: type, required,
// properties, items (contract section 2). Those keywords must therefore be well formed; others are only
// shown to the model and are left alone.

const JSON_TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];
// Selu strips these top-level argument keys before the call, so a tool never receives them.
const STRIPPED = ["_approval_message", "_approval_message_i18n"];

/**
 * Checks a tool's `input_schema`: an object schema at the root, well-formed type/required/properties/items
 * throughout, no property Selu strips, and an `attachments` property in the one shape Selu rewrites.
 */
export function checkInputSchema(schema: Record<string, unknown>, at: KeyPath): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const add = (path: KeyPath, message: string) => problems.push(problem("rule", path, message));
  if (schema.type !== "object") {
    add([...at, "type"], `is ${preview(schema.type)}: expected "object" (Selu passes arguments as one JSON object)`);
  }
  checkSubschema(schema, at, add);
  const properties = isMapping(schema.properties) ? schema.properties : {};
  for (const key of STRIPPED) {
    if (key in properties) add([...at, "properties", key], "Selu strips this argument before the call, so the tool never receives it");
  }
  if ("attachments" in properties) checkAttachments(properties.attachments, [...at, "properties", "attachments"], add);
  return problems;
}

type Add = (path: KeyPath, message: string) => void;

function checkSubschema(schema: unknown, at: KeyPath, add: Add): void {
  if (typeof schema === "boolean") return;
  if (!isMapping(schema)) return add(at, `is ${preview(schema)}: expected a schema (a mapping)`);
  if ("type" in schema) checkType(schema.type, [...at, "type"], add);
  if ("properties" in schema) {
    if (!isMapping(schema.properties)) add([...at, "properties"], `is ${preview(schema.properties)}: expected a mapping of property schemas`);
    else for (const [key, sub] of Object.entries(schema.properties)) checkSubschema(sub, [...at, "properties", key], add);
  }
  if ("required" in schema) checkRequired(schema.required, schema.properties, [...at, "required"], add);
  if ("items" in schema) {
    if (Array.isArray(schema.items)) add([...at, "items"], "is a list: expected one schema for every item (Selu does not read tuple items)");
    else checkSubschema(schema.items, [...at, "items"], add);
  }
}

function checkType(type: unknown, at: KeyPath, add: Add): void {
  const types = Array.isArray(type) ? type : [type];
  const bad = types.filter((t) => typeof t !== "string" || !JSON_TYPES.includes(t));
  if (bad.length > 0 || types.length === 0) add(at, `is ${preview(type)}: expected one of ${JSON_TYPES.join(", ")} (or a list of them)`);
}

function checkRequired(required: unknown, properties: unknown, at: KeyPath, add: Add): void {
  if (!Array.isArray(required) || !required.every((r) => typeof r === "string")) {
    return add(at, `is ${preview(required)}: expected a list of property names`);
  }
  const seen = new Set<string>();
  required.forEach((name, i) => {
    if (seen.has(name)) add([...at, i], `lists "${name}" twice`);
    seen.add(name);
    if (isMapping(properties) && !Object.hasOwn(properties, name)) {
      add([...at, i], `lists "${name}", which is not in properties: the model can't know what to send`);
    }
  });
}

/**
 * Selu uploads files only from the top-level `attachments` array, and only elements with a string
 * `artifact_id`: anything else reaches the tool unchanged, without the file (contract section 4).
 */
function checkAttachments(schema: unknown, at: KeyPath, add: Add): void {
  const expected = "expected {type: array, items: {type: object, properties: {artifact_id: {type: string}}, required: [artifact_id]}}";
  if (!isMapping(schema) || schema.type !== "array") return add(at, `is not an array schema: ${expected} (Selu uploads files only from that shape)`);
  const items = schema.items;
  if (!isMapping(items) || items.type !== "object") return add([...at, "items"], `is not an object schema: ${expected}`);
  const artifactId = isMapping(items.properties) ? items.properties.artifact_id : undefined;
  if (!isMapping(artifactId) || artifactId.type !== "string") {
    return add([...at, "items", "properties", "artifact_id"], `is missing or not type string: ${expected} (Selu looks up each element's artifact_id)`);
  }
  if (!Array.isArray(items.required) || !items.required.includes("artifact_id")) {
    add([...at, "items", "required"], "does not list artifact_id: an element without it reaches the tool without its file");
  }
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
