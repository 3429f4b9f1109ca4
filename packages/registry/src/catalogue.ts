import { type Manifest, manifestSchema } from "@selu-catalogue/manifest";
import { z } from "zod";
import type { AgentPackage } from "./agent-package.js";
import type { CapabilitySource } from "./capability-source.js";

/** What a dynamic capability's `tools` says in the catalogue: its tools exist only once it runs. */
export const DISCOVERED_AT_RUN_TIME = "discovered at run time";

const policy = z.enum(["allow", "ask", "block"]);

/** One capability in `registry/catalogue.json`. */
export const catalogueEntrySchema = z.strictObject({
  id: z.string().describe("The manifest id: tool names reach the model as <id>__<tool>"),
  name: z.string().describe("English display name"),
  name_localizations: z.record(z.string(), z.string()),
  version: z.string().describe("The capability's package version; its image carries the same tag"),
  description: z.string(),
  description_localizations: z.record(z.string(), z.string()),
  image: z.string().describe("The container image Selu runs, exactly as the manifest names it"),
  // Other ways to launch the capability go beside `image`: the MCP launch command (issue 19) belongs here.
  class: z.enum(["tool", "environment"]),
  source: z.string().describe("The capability's directory in the repository"),
  tool_source: z.enum(["manifest", "dynamic"]),
  discovery_tool_name: z.string().optional().describe("For tool_source dynamic: the tool Selu calls to list the tools"),
  tools: z
    .union([
      z.array(
        z.strictObject({
          name: z.string(),
          description: z.string(),
          input_schema: z.record(z.string(), z.unknown()).describe("JSON Schema of the arguments"),
          policy: policy.describe("recommended_policy: what Selu preselects for the admin"),
          terminal_on_success: z.boolean().describe("The result is the user's reply verbatim and ends the turn"),
        }),
      ),
      z.literal(DISCOVERED_AT_RUN_TIME),
    ])
    .describe(`The tools with their input schemas and policies, or "${DISCOVERED_AT_RUN_TIME}" for tool_source dynamic`),
  credentials: z.array(z.strictObject({ name: z.string(), scope: z.enum(["user", "system"]), required: z.boolean(), description: z.string() })),
  network: z.strictObject({ mode: z.enum(["none", "allowlist", "any"]), hosts: z.array(z.string()) }),
  filesystem: z.enum(["none", "temp", "workspace"]),
  resources: z.strictObject({ max_memory_mb: z.number(), max_cpu_fraction: z.number(), max_cpu_seconds: z.number(), pids_limit: z.number() }),
  sharing: z.strictObject({ mode: z.enum(["exclusive", "shared"]), max_concurrent: z.number(), idle_timeout_seconds: z.number() }),
  mcp: z
    .strictObject({ command: z.string(), args: z.array(z.string()) })
    .optional()
    .describe(
      "How an MCP client starts the capability as an MCP server over stdio, in the shape of an MCP client's server entry: the published image's " +
        "entrypoint with --mcp stdio, credentials passed from the client's environment by name",
    ),
});
/** One entry of {@link catalogueSchema}. */
export type CatalogueEntry = z.output<typeof catalogueEntrySchema>;

/** `registry/catalogue.json`: every capability for consumers other than Selu's marketplace. */
export const catalogueSchema = z.strictObject({
  $schema: z.string().optional(),
  version: z.literal(1),
  capabilities: z.array(catalogueEntrySchema),
});
/** A parsed {@link catalogueSchema}. */
export type Catalogue = z.output<typeof catalogueSchema>;

/** The catalogue entry of one capability, from the same sources as its agent package. */
export function catalogueEntry(source: CapabilitySource, pkg: AgentPackage): CatalogueEntry {
  const m: Manifest = source.manifest;
  const dynamic = m.tool_source === "dynamic";
  return {
    id: m.id,
    name: pkg.strings.en.agent.name,
    name_localizations: { en: pkg.strings.en.agent.name, de: pkg.strings.de.agent.name },
    version: source.version,
    description: pkg.strings.en.agent.description,
    description_localizations: { en: pkg.strings.en.agent.description, de: pkg.strings.de.agent.description },
    image: m.image,
    class: m.class,
    source: `capabilities/${source.dirName}`,
    tool_source: m.tool_source,
    ...(dynamic ? { discovery_tool_name: m.discovery_tool_name } : {}),
    tools: dynamic
      ? DISCOVERED_AT_RUN_TIME
      : m.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema, policy: t.recommended_policy, terminal_on_success: t.terminal_on_success })),
    credentials: m.credentials.map((c) => ({ name: c.name, scope: c.scope, required: c.required, description: c.description })),
    network: { mode: m.network.mode, hosts: m.network.hosts },
    filesystem: m.filesystem,
    resources: { ...m.resources },
    sharing: { ...m.sharing },
    ...(source.start ? { mcp: mcpLaunch(m, source.start) } : {}),
  };
}

/** `docker run` of the image's own CMD with `--mcp stdio` (the kit's convention), `-e NAME` per credential. */
function mcpLaunch(m: Manifest, start: string): { command: string; args: string[] } {
  const env = m.credentials.flatMap((c) => ["-e", c.name]);
  return { command: "docker", args: ["run", "-i", "--rm", ...env, m.image, ...start.split(/\s+/), "--mcp", "stdio"] };
}

/** The JSON Schema of `registry/catalogue.json`, from {@link catalogueSchema}. */
export function catalogueJsonSchema(): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Selu capability catalogue",
    ...z.toJSONSchema(catalogueSchema, { target: "draft-2020-12" }),
  };
}

/**
 * The JSON Schema of `manifest.yaml`, from the manifest package's zod schema (the input side: keys with
 * Selu's defaults are optional). Objects with known keys refuse unknown ones, because Selu ignores them
 * silently: an editor should flag the typo.
 */
export function manifestJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(manifestSchema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  closeObjects(schema);
  const { $schema: _drop, ...rest } = schema;
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Selu capability manifest (manifest.yaml)",
    description: "manifest.yaml as the Selu orchestrator parses it, with the catalogue's rules; generated from @selu-catalogue/manifest.",
    ...rest,
  };
}

function closeObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(closeObjects);
  if (typeof node !== "object" || node === null) return;
  const o = node as Record<string, unknown>;
  if (o.type === "object" && typeof o.properties === "object" && o.additionalProperties === undefined) o.additionalProperties = false;
  for (const value of Object.values(o)) closeObjects(value);
}
