import { z } from "zod";

// Selu's manifest rules (contract section 6). Objects are strict so keys Selu would ignore silently are
// reported; defaults are Selu's.
const policy = z.enum(["allow", "ask", "block"]);
const HOST = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i;

const tool = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_]*$/, "expected a snake_case tool name"),
  description: z.string().min(1, "expected a non-empty description"),
  input_schema: z.looseObject({ type: z.literal("object", "expected an object schema (type: object)") }),
  recommended_policy: policy.default("block"),
  terminal_on_success: z.boolean().default(false),
  requires_confirmation: z.boolean().optional(),
});

const credential = z.strictObject({
  name: z.string().regex(/^[A-Z][A-Z0-9_]*$/, "expected an UPPER_SNAKE_CASE name"),
  scope: z.enum(["user", "system"]),
  required: z.boolean().default(true),
  description: z.string().default(""),
  credential_type: z.string().default("secret"),
});

export const manifestSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "expected lowercase letters, digits and single hyphens (no __)"),
    class: z.enum(["tool", "environment"]),
    image: z.string().min(1),
    tool_source: z.enum(["manifest", "dynamic"]).default("manifest"),
    discovery_tool_name: z.string().default("list_tools"),
    tools: z.array(tool).default([]),
    network: z
      .strictObject({
        mode: z.enum(["none", "allowlist", "any"]).default("none"),
        hosts: z.array(z.string().regex(HOST, "expected host, host:port or *.suffix[:port]")).default([]),
      })
      .default({ mode: "none", hosts: [] }),
    filesystem: z.enum(["none", "temp", "workspace"]).default("none"),
    credentials: z.array(credential).default([]),
    resources: z
      .strictObject({
        max_memory_mb: z.number().int().positive().default(128),
        max_cpu_fraction: z.number().positive().max(64).default(0.5),
        max_cpu_seconds: z.number().int().positive().default(30),
        pids_limit: z.number().int().positive().default(64),
      })
      .default({ max_memory_mb: 128, max_cpu_fraction: 0.5, max_cpu_seconds: 30, pids_limit: 64 }),
    cache: z.strictObject({ enabled: z.boolean().default(false) }).optional(),
    sharing: z
      .strictObject({
        mode: z.enum(["exclusive", "shared"]).default("exclusive"),
        max_concurrent: z.number().int().positive().default(1),
        idle_timeout_seconds: z.number().int().positive().default(300),
      })
      .default({ mode: "exclusive", max_concurrent: 1, idle_timeout_seconds: 300 }),
  })
  .superRefine((m, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    if (m.tool_source === "dynamic" && m.tools.length > 0) issue(["tools"], "must be [] when tool_source is dynamic");
    if (m.tool_source === "manifest" && m.tools.length === 0) issue(["tools"], "expected at least one tool");
    if (m.filesystem === "workspace" && m.class !== "environment") issue(["filesystem"], "workspace is only for class environment");
    if (m.cache && m.class !== "environment") issue(["cache"], "cache is only for class environment");
    if (m.sharing.mode === "shared" && m.class === "environment") issue(["sharing", "mode"], "shared is not allowed for class environment");
    if (m.network.mode === "allowlist" && m.network.hosts.length === 0) issue(["network", "hosts"], "an allowlist needs at least one host");
    const seen = new Set<string>();
    m.tools.forEach((t, i) => {
      if (seen.has(t.name)) issue(["tools", i, "name"], `duplicate tool name ${t.name}`);
      seen.add(t.name);
      const attachments = (t.input_schema.properties as Record<string, any> | undefined)?.attachments;
      if (attachments && !(attachments.type === "array" && attachments.items?.properties?.artifact_id)) {
        issue(["tools", i, "input_schema", "properties", "attachments"], "expected an array of objects with artifact_id (Selu rewrites only those)");
      }
    });
  });

/** A manifest with Selu's defaults applied. */
export type Manifest = z.output<typeof manifestSchema>;
