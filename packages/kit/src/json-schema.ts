import { z } from "zod";

// The metadata key, in zod's own registry, of a JSON Schema advertised instead of the schema's own.
const ADVERTISED = "selu.advertised";

/**
 * A copy of `schema` that tool JSON Schemas advertise as `json` while run-time validation uses `schema`
 * (attachments: the model sends artifact_id, the orchestrator rewrites it to capability_artifact_id
 * before we see it). The JSON travels as the schema's metadata in zod's registry: no module state.
 */
export function advertiseAs<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  return schema.meta({ [ADVERTISED]: json }) as T;
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
      const replacement = z.globalRegistry.get(ctx.zodSchema)?.[ADVERTISED] as Record<string, unknown> | undefined;
      if (!replacement) return;
      for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Record<string, unknown>)[key];
      Object.assign(ctx.jsonSchema, structuredClone(replacement));
    },
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
