import { z } from "zod";

const text = z.string().trim().min(1, "expected text, not an empty string");

/**
 * The strings an agent package shows people, in one locale, keyed by the capability's own names
 * (never its id, so renaming a capability keeps its translations). English is derived from the code
 * and files; other locales are written by hand in `agent/<locale>.yaml` in this shape.
 */
export const agentStringsSchema = z.strictObject({
  agent: z.strictObject({ name: text, description: text, long_description: text.optional() }),
  tools: z.record(
    z.string(),
    z.strictObject({
      display_name: text,
      description: text,
      input: z.record(z.string(), text).default(() => ({})),
      /** Only for tools whose policy is `ask`: what Selu shows when it asks the user. */
      approval: z.strictObject({ label: text, message: text }).optional(),
    }),
  ),
  credentials: z.record(z.string(), text).default(() => ({})),
});
/** A complete set of strings in one locale. */
export type AgentStrings = z.output<typeof agentStringsSchema>;

/** A hand-written translation: any part may be missing and then falls back to English. */
export const germanSourceSchema = z.strictObject({
  agent: agentStringsSchema.shape.agent.partial().optional(),
  tools: z
    .record(
      z.string(),
      z.strictObject({
        display_name: text.optional(),
        description: text.optional(),
        input: z.record(z.string(), text).optional(),
        approval: z.strictObject({ label: text.optional(), message: text.optional() }).optional(),
      }),
    )
    .optional(),
  credentials: z.record(z.string(), text).optional(),
});
/** A parsed `agent/de.yaml`. */
export type PartialAgentStrings = z.output<typeof germanSourceSchema>;
