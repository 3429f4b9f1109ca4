import type { z } from "zod";

type Def = {
  type: string;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
  element?: z.core.$ZodType;
  options?: z.core.$ZodType[];
  discriminator?: string;
  values?: unknown[];
  catchall?: z.core.$ZodType;
};

const def = (schema: z.core.$ZodType): Def => schema._zod.def as unknown as Def;
const WRAPPERS = new Set(["optional", "default", "prefault", "nullable", "readonly", "catch"]);
const NONE: readonly z.core.$ZodType[] = [];

/**
 * Removes `null` values of optional fields, recursively through objects, arrays and unions, so they read
 * as absent. Selu treats `null` as missing for required fields but dispatches `null` of an optional
 * field unchecked (a model's `{"subject": null}` reaches the capability; issue 12), at any depth (a block's
 * `{"caption": null}` inside a list of blocks of several types); a required field's `null`, and `null`
 * where the schema itself accepts it, are left for validation to judge. Under a union, a `null` is
 * removed only when every object branch the value may be (by its discriminator, when the union has one)
 * reads that field as optional. A `null` of a key no branch has is removed too when no branch takes keys
 * of its own (a table's `{"caption": null}` from another document model says no more than its absence).
 * Mutates `value` (freshly parsed arguments) in place.
 */
export function dropOptionalNulls(schema: z.core.$ZodType, value: unknown): void {
  if (value === null || typeof value !== "object") return;
  const branches = branchesFor(schema, value);
  if (branches.length === 0) return;
  if (Array.isArray(value)) {
    for (const branch of branches) {
      const element = def(branch).element!;
      // Arrays of strings or numbers hold no optional fields: skip them without a look at each item.
      if (mayHoldObjects(element)) for (const item of value) dropOptionalNulls(element, item);
    }
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const v = record[key];
    if (v !== null && typeof v !== "object") continue;
    const fields = fieldsOf(branches, key);
    if (fields.length === 0) {
      if (v === null && branches.every(takesNoOtherKeys)) delete record[key];
      continue;
    }
    if (v === null) {
      if (fields.every((field) => isOptional(field) && !acceptsNull(field))) delete record[key];
    } else for (const field of fields) dropOptionalNulls(field, v);
  }
}

/** The object schemas (for an object) or array schemas (for an array) `value` may be under `schema`. */
function branchesFor(schema: z.core.$ZodType, value: object, depth = 0): readonly z.core.$ZodType[] {
  const s = unwrap(schema);
  if (!s || depth > 16) return NONE;
  const d = def(s);
  if (d.type === "object") return Array.isArray(value) ? NONE : [s];
  if (d.type === "array") return Array.isArray(value) ? [s] : NONE;
  if (d.type !== "union") return NONE;
  const tag = d.discriminator !== undefined && !Array.isArray(value) ? (value as Record<string, unknown>)[d.discriminator] : undefined;
  const options = tag === undefined ? d.options! : d.options!.filter((option) => tagged(option, d.discriminator!, tag));
  return options.flatMap((option) => branchesFor(option, value, depth + 1));
}

/** Whether an object branch of a discriminated union is the one for `tag`. */
function tagged(option: z.core.$ZodType, discriminator: string, tag: unknown): boolean {
  const object = unwrap(option);
  const field = object && def(object).type === "object" ? def(object).shape![discriminator] : undefined;
  const literal = field && unwrap(field);
  return !literal || def(literal).type !== "literal" || def(literal).values!.includes(tag);
}

function fieldsOf(branches: readonly z.core.$ZodType[], key: string): z.core.$ZodType[] {
  const fields: z.core.$ZodType[] = [];
  for (const branch of branches) {
    const shape = def(branch).shape!;
    if (Object.hasOwn(shape, key)) fields.push(shape[key]!);
  }
  return fields;
}

/** Whether an object schema refuses or strips keys it doesn't name (no catch-all schema for them). */
function takesNoOtherKeys(object: z.core.$ZodType): boolean {
  const { catchall } = def(object);
  return catchall === undefined || def(catchall).type === "never";
}

/** Whether values under `schema` may be objects or arrays (anything else holds no optional field). */
function mayHoldObjects(schema: z.core.$ZodType, depth = 0): boolean {
  const s = unwrap(schema);
  if (!s || depth > 16) return false;
  const d = def(s);
  return d.type === "object" || d.type === "array" || (d.type === "union" && d.options!.some((option) => mayHoldObjects(option, depth + 1)));
}

/** The schema under optional/default/nullable/pipe wrappers. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType | undefined {
  let s: z.core.$ZodType | undefined = schema;
  for (let depth = 0; s && depth < 16; depth++) {
    const d = def(s);
    if (WRAPPERS.has(d.type)) s = d.innerType;
    else if (d.type === "pipe") s = d.in;
    else return s;
  }
  return undefined;
}

function acceptsNull(schema: z.core.$ZodType): boolean {
  let s: z.core.$ZodType | undefined = schema;
  for (let depth = 0; s && depth < 16; depth++) {
    const d = def(s);
    if (d.type === "nullable" || d.type === "null" || d.type === "any" || d.type === "unknown") return true;
    s = WRAPPERS.has(d.type) ? d.innerType : d.type === "pipe" ? d.in : undefined;
  }
  return false;
}

function isOptional(schema: z.core.$ZodType): boolean {
  const type = def(schema).type;
  return schema._zod.optin === "optional" || type === "default" || type === "prefault" || type === "optional";
}
