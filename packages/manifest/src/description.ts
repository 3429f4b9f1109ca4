import { z } from "zod";

// The one declaration of a capability's description: what its code defines, in the manifest's shape
// (snake_case keys, as Selu reads them). The server kit produces it (`describe()`, a type-only import, so
// this package never loads at run time), this package writes manifest.yaml from it and checks
// manifest.yaml and built code against it, and the testkit reads it; every type is inferred from here.

/** How Selu treats a tool until an admin decides: run it, ask the user first, or refuse it. */
export const policySchema = z.enum(["allow", "ask", "block"]);

/** One tool as the code defines it: what the model sees and the policy it starts with. */
export const toolDescriptionSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** JSON Schema of the arguments; its root is `type: object`. */
  input_schema: z.record(z.string(), z.unknown()),
  recommended_policy: policySchema,
  terminal_on_success: z.boolean(),
});

/** One credential the code reads from `config_json`. */
export const credentialDescriptionSchema = z.object({
  name: z.string(),
  scope: z.enum(["user", "system"]),
  required: z.boolean(),
  description: z.string(),
  /** Selu's default is `secret` when absent. */
  credential_type: z.string().optional(),
});

/** `network` as a manifest declares it: no egress, egress to `hosts` only, or egress anywhere. */
export const networkDescriptionSchema = z.object({
  mode: z.enum(["none", "allowlist", "any"]),
  /** Allowlist entries: `host:port`, `host` (any port), `*.suffix[:port]`. */
  hosts: z.array(z.string()).readonly(),
});

/** `resources` as a manifest declares them: the container's limits. */
export const resourcesDescriptionSchema = z.object({
  max_memory_mb: z.number().int().positive(),
  max_cpu_fraction: z.number().positive(),
  max_cpu_seconds: z.number().int().positive(),
  pids_limit: z.number().int().positive(),
});

/**
 * A capability's tools and credentials as its code defines them. The server kit produces it from its
 * tool definitions (`describe()`); this package writes manifest.yaml from it and checks manifest.yaml
 * against it, so the two can't drift.
 */
export const capabilityDescriptionSchema = z.object({
  id: z.string(),
  /** `dynamic` when the tools come from a discovery call at run time (then `tools` is every tool it may offer). */
  tool_source: z.enum(["manifest", "dynamic"]).optional(),
  /** The discovery tool's name, for `tool_source: dynamic`. */
  discovery_tool_name: z.string().optional(),
  tools: z.array(toolDescriptionSchema),
  credentials: z.array(credentialDescriptionSchema),
});

export type Policy = z.infer<typeof policySchema>;
export type ToolDescription = z.infer<typeof toolDescriptionSchema>;
export type CredentialDescription = z.infer<typeof credentialDescriptionSchema>;
export type NetworkDescription = z.infer<typeof networkDescriptionSchema>;
export type ResourcesDescription = z.infer<typeof resourcesDescriptionSchema>;
export type CapabilityDescription = z.infer<typeof capabilityDescriptionSchema>;
