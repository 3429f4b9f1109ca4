import { z } from "zod";

// What Selu's serde types accept (selu-orchestrator 68b1b8f: agents/loader.rs, agents/localization.rs,
// agents/marketplace.rs), a little stricter where serde would coerce: strings must be YAML strings and
// numbers integers within u32. Unknown keys are ignored, as serde does.

const text = z.string();
const optionalText = text.nullish();
const u32 = z
  .number()
  .int()
  .min(0)
  .max(2 ** 32 - 1);
/** serde's HashMap<String, T>: a mapping (absent = empty). */
const map = <T extends z.ZodType>(value: T) => z.record(z.string(), value).default(() => ({}));

/** `i18n/<locale>.yaml` as Selu's AgentLocaleBundle: one that fails makes Selu drop the whole agent. */
export const localeBundleSchema = z.object({
  agent: z.object({ name: optionalText, description: optionalText, long_description: optionalText }).prefault({}),
  install_steps: map(z.object({ label: optionalText, description: optionalText })),
  automation: z.object({ schedules: map(z.object({ label: optionalText, prompt: optionalText, cron_description: optionalText })) }).prefault({}),
  capabilities: map(
    z.object({
      tools: map(z.object({ display_name: optionalText, description: optionalText, input: map(z.object({ description: optionalText })) })),
      credentials: map(z.object({ description: optionalText })),
    }),
  ),
  approval: z.object({ tools: map(z.object({ label: optionalText, message: optionalText })) }).prefault({}),
});
/** A parsed {@link localeBundleSchema}. */
export type LocaleBundle = z.output<typeof localeBundleSchema>;

const installStepSchema = z.object({
  id: text,
  type: z.enum(["input", "test"]),
  label: text,
  description: text.default(""),
  default: optionalText,
  validation: optionalText,
  store_as: z.object({ scope: text, capability_id: text, credential_name: text }).nullish(),
  request: z.object({ method: text, url: text, expect_status: z.number().int().min(0).max(65_535) }).nullish(),
  depends_on: optionalText,
});

/** `agent.yaml` as Selu's AgentDefinition. */
export const agentYamlSchema = z.object({
  id: text,
  name: text,
  i18n: z.object({ default_locale: text.default("en"), supported_locales: z.array(text).default(() => []) }).prefault({}),
  model: z.object({ provider: text, model_id: text, temperature: z.number().default(0.7) }).nullish(),
  routing: z.enum(["inline", "delegate", "auto"]).default("auto"),
  session: z.object({ trigger: text.default("mention"), idle_timeout_minutes: u32.default(30), isolation: z.enum(["shared", "per_thread"]).default("shared") }).prefault({}),
  capabilities: z.array(z.object({ id: text })).default(() => []),
  install_steps: z.array(installStepSchema).default(() => []),
  automation: z.object({ schedules: z.array(z.object({ id: text, label: text, prompt: text, cron_expression: text, cron_description: text })).default(() => []) }).prefault({}),
});
/** A parsed {@link agentYamlSchema}. */
export type AgentYaml = z.output<typeof agentYamlSchema>;
/** One entry of `install_steps`. */
export type InstallStep = z.output<typeof installStepSchema>;

/** One agent of the marketplace index (Selu's MarketplaceEntry). */
export const marketplaceEntrySchema = z.object({
  id: text,
  name: text,
  description: text,
  name_localizations: z.record(z.string(), text).default(() => ({})),
  description_localizations: z.record(z.string(), text).default(() => ({})),
  version: text,
  author: text.default(""),
  archive_url: text,
  archive_sha256: text.default(""),
  capability_images: z.array(text).default(() => []),
  average_rating: z.number().nullish(),
  rating_count: u32.nullish(),
});
/** A parsed {@link marketplaceEntrySchema}. */
export type MarketplaceEntry = z.output<typeof marketplaceEntrySchema>;

/** `marketplace.json`, the index Selu fetches from its one configured URL (Selu's MarketplaceCatalogue). */
export const marketplaceSchema = z.object({ version: u32, agents: z.array(marketplaceEntrySchema) });
/** A parsed {@link marketplaceSchema}. */
export type Marketplace = z.output<typeof marketplaceSchema>;
