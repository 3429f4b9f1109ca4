import { z } from "zod";

// Schemas whose advertised JSON Schema differs from what arrives at run time (attachments: the model
// sends artifact_id, the orchestrator rewrites it to capability_artifact_id before we see it).
const advertised = new WeakMap<z.core.$ZodType, Record<string, unknown>>();

/** Advertises `json` for `schema` in tool JSON Schemas while validating with `schema` at run time. */
export function advertiseAs<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  advertised.set(schema, json);
  return schema;
}

/**
 * The JSON Schema of a tool's input as the manifest and the model see it. Converted once per tool
 * (callers cache it), so what is advertised and what is validated come from the same schema.
 */
export function toolJsonSchema(input: z.ZodObject): Record<string, unknown> {
  const json = z.toJSONSchema(input, {
    target: "draft-07",
    io: "input",
    unrepresentable: "throw",
    reused: "inline",
    override(ctx) {
      const replacement = advertised.get(ctx.zodSchema);
      if (!replacement) return;
      for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Record<string, unknown>)[key];
      Object.assign(ctx.jsonSchema, structuredClone(replacement));
    },
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
