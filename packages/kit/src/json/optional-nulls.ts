import type { z } from "zod";

type Def = { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType; shape?: Record<string, z.core.$ZodType>; element?: z.core.$ZodType };

const def = (schema: z.core.$ZodType): Def => schema._zod.def as unknown as Def;
const WRAPPERS = new Set(["optional", "default", "prefault", "nullable", "readonly", "catch"]);

/**
 * Removes `null` values of optional fields, recursively through objects and arrays of objects, so they
 * read as absent. Selu treats `null` as missing for required fields but dispatches `null` of an optional
 * field unchecked (a model's `{"subject": null}` reaches the capability; issue 12); a required field's
 * `null`, and `null` where the schema itself accepts it, are left for validation to judge. Mutates
 * `value` (freshly parsed arguments) in place.
 */
export function dropOptionalNulls(schema: z.core.$ZodType, value: unknown): void {
  const object = core(schema);
  if (!object) return;
  const d = def(object);
  if (d.type === "array") {
    // Arrays of strings or numbers hold no optional fields: skip them without a look at each item.
    if (Array.isArray(value) && core(d.element!)) for (const item of value) dropOptionalNulls(d.element!, item);
    return;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  const record = value as Record<string, unknown>;
  const shape = d.shape!;
  for (const key in record) {
    const v = record[key];
    if (v !== null && typeof v !== "object") continue;
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (!field) continue;
    if (v === null) {
      if (isOptional(field) && !acceptsNull(field)) delete record[key];
    } else dropOptionalNulls(field, v);
  }
}

/** The object or array schema under optional/default/nullable/pipe wrappers, if there is one. */
function core(schema: z.core.$ZodType): z.core.$ZodType | undefined {
  let s: z.core.$ZodType | undefined = schema;
  for (let depth = 0; s && depth < 16; depth++) {
    const d = def(s);
    if (d.type === "object" || d.type === "array") return s;
    s = WRAPPERS.has(d.type) ? d.innerType : d.type === "pipe" ? d.in : undefined;
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
