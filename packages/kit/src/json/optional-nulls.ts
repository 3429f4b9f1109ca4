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
    if (Array.isArray(value)) for (const item of value) dropOptionalNulls(d.element!, item);
    return;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  const record = value as Record<string, unknown>;
  for (const [key, field] of Object.entries(d.shape!)) {
    const v = record[key];
    if (v === null) {
      if (isOptional(field) && !acceptsNull(field)) delete record[key];
    } else if (typeof v === "object" && v !== undefined) dropOptionalNulls(field, v);
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
