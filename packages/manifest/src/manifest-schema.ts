import { z } from "zod";

// The shape of manifest.yaml as Selu deserialises it (contract section 6), with Selu's defaults. Only types,
// enums and required keys live here: a document that fails this schema is one Selu can't load. Cross-field
// and catalogue rules are in manifest-rules.ts, so a manifest with the right shape is always returned typed.
// Objects are not strict on purpose: unknown keys are found by unknown-keys.ts, which walks this schema.

const policy = z.enum(["allow", "ask", "block"]);
const positiveInt = z.number().int().positive();

/** One entry of `tools`: what the model sees; absent `recommended_policy` means block. */
export const manifestToolSchema = z.object({
  name: z.string(),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
  recommended_policy: policy.default("block"),
  terminal_on_success: z.boolean().default(false),
  /** Legacy: Selu still reads it; the catalogue uses `recommended_policy: ask` instead. */
  requires_confirmation: z.boolean().optional(),
});

/** One entry of `credentials`: a value Selu passes in `config_json` under `name`. */
export const manifestCredentialSchema = z.object({
  name: z.string(),
  scope: z.enum(["user", "system"]),
  required: z.boolean().default(true),
  description: z.string().default(""),
  credential_type: z.string().default("secret"),
});

/** `network`: no egress (default), egress to `hosts` only, or egress anywhere, all through Selu's proxy. */
export const manifestNetworkSchema = z.object({
  mode: z.enum(["none", "allowlist", "any"]).default("none"),
  hosts: z.array(z.string()).default(() => []),
});

/** `resources`: the container's limits. */
export const manifestResourcesSchema = z.object({
  max_memory_mb: positiveInt.default(128),
  max_cpu_fraction: z.number().positive().default(0.5),
  max_cpu_seconds: positiveInt.default(30),
  pids_limit: positiveInt.default(64),
});

/** `cache`: a persistent /cache volume, for class environment only. */
export const manifestCacheSchema = z.object({
  enabled: z.boolean().default(false),
});

/** `sharing`: one container per session (exclusive) or one for all sessions (shared). */
export const manifestSharingSchema = z.object({
  mode: z.enum(["exclusive", "shared"]).default("exclusive"),
  max_concurrent: positiveInt.default(1),
  idle_timeout_seconds: positiveInt.default(300),
});

/**
 * manifest.yaml as Selu reads it, with Selu's defaults. Use {@link parseManifest} rather than this schema
 * directly: it adds YAML positions, unknown-key reports and the rules a shape can't express.
 */
export const manifestSchema = z.object({
  id: z.string(),
  // Required: the public docs' "default tool" is wrong; Selu refuses a manifest without class.
  class: z.enum(["tool", "environment"]),
  image: z.string(),
  tool_source: z.enum(["manifest", "dynamic"]).default("manifest"),
  discovery_tool_name: z.string().default("list_tools"),
  tools: z.array(manifestToolSchema).default(() => []),
  network: manifestNetworkSchema.prefault({}),
  filesystem: z.enum(["none", "temp", "workspace"]).default("none"),
  credentials: z.array(manifestCredentialSchema).default(() => []),
  resources: manifestResourcesSchema.prefault({}),
  cache: manifestCacheSchema.prefault({}),
  sharing: manifestSharingSchema.prefault({}),
});

/** A manifest with Selu's defaults applied: every optional key is present with the value Selu uses. */
export type Manifest = z.output<typeof manifestSchema>;
/** One tool of a {@link Manifest}. */
export type ManifestTool = z.output<typeof manifestToolSchema>;
/** One credential of a {@link Manifest}. */
export type ManifestCredential = z.output<typeof manifestCredentialSchema>;
