import type { ToolDescription } from "../description.js";
import { ToolError } from "../errors.js";
import type { ToolDefinition } from "../tool.js";
import type { CredentialSpecs } from "../tool-context.js";

/** The names of a capability's system-scoped credentials (the only ones discovery receives). */
export type SystemCredentialName<C extends CredentialSpecs> = {
  [K in keyof C]: C[K] extends { scope: "system" } ? K & string : never;
}[keyof C];

/** A configuration as discovery sees it: the system-scoped credentials that are set. */
export type DiscoveryConfig<C extends CredentialSpecs> = Readonly<Partial<Record<SystemCredentialName<C>, string>>>;

/**
 * Dynamic tool discovery (Selu's `tool_source: dynamic`, contract section 5): which of the capability's
 * tools the current configuration offers. Selu calls the discovery tool with `{}` and the system-scoped
 * credentials only; the kit answers with the offered tools' descriptions (from the same zod schemas as
 * every call) and refuses calls to any other tool, so what discovery hides can't be called anyway.
 *
 * @example
 * const discovery: DiscoverySpec<{ READ_ONLY: { scope: "system"; required: false; description: string } }> = {
 *   offer: (config) => (config.READ_ONLY === "true" ? ["read_file"] : ["read_file", "write_file"]),
 *   refusal: (tool) => `${tool} writes, and the workspace is read-only (READ_ONLY is set)`,
 * };
 * void discovery;
 */
export interface DiscoverySpec<C extends CredentialSpecs> {
  /** The tool name Selu calls for discovery (manifest `discovery_tool_name`); default `list_tools`. */
  toolName?: string;
  /** The names of the tools this configuration offers. Must be cheap and pure: it runs on every call. */
  offer(config: DiscoveryConfig<C>): Iterable<string>;
  /** Why `tool` is not offered under `config`, in words a user can act on. */
  refusal?(tool: string, config: DiscoveryConfig<C>): string | undefined;
}

/** The discovery of a defined capability, as the invoke path uses it. */
export interface Discovery {
  readonly toolName: string;
  /**
   * Answers the discovery call, refuses a tool the configuration does not offer, or returns undefined
   * for a call that may go on to its handler. `config` is the call's parsed `config_json` (the invoke
   * path reads it, within its bounds, so this definition-side module needs no run-time parsing).
   */
  route(toolName: string, config: Readonly<Record<string, unknown>>): { ok: true; resultJson: Buffer } | { ok: false; error: string } | undefined;
}

export const DEFAULT_DISCOVERY_TOOL = "list_tools";

/**
 * Checks a discovery spec against the tools at definition time and binds it to them.
 * @throws TypeError when the discovery tool name is taken by a tool, or a tool is terminal (Selu can't
 * make a discovered tool terminal_on_success).
 */
export function createDiscovery<C extends CredentialSpecs>(
  spec: DiscoverySpec<C>,
  tools: ReadonlyMap<string, ToolDefinition<C>>,
  credentials: C,
  describeTools: () => readonly ToolDescription[],
): Discovery {
  const toolName = spec.toolName ?? DEFAULT_DISCOVERY_TOOL;
  if (!/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(toolName)) throw new TypeError(`defineCapability: discovery tool name ${JSON.stringify(toolName)} must be snake_case`);
  if (tools.has(toolName)) throw new TypeError(`defineCapability: tool ${toolName} has the discovery tool's name; rename one of them`);
  for (const [name, def] of tools) {
    if (def.terminalOnSuccess) throw new TypeError(`defineCapability: tool ${name} is terminalOnSuccess, which Selu does not allow for discovered tools`);
  }
  const system = Object.keys(credentials).filter((name) => credentials[name]?.scope === "system");

  function configOf(raw: Readonly<Record<string, unknown>>): DiscoveryConfig<C> {
    const config: Record<string, string> = {};
    for (const name of system) if (typeof raw[name] === "string" && raw[name] !== "") config[name] = raw[name];
    return config as DiscoveryConfig<C>;
  }

  function offered(config: DiscoveryConfig<C>): Set<string> {
    const names = new Set(spec.offer(config));
    for (const name of names) if (!tools.has(name)) throw new Error(`discovery offered ${JSON.stringify(name)}, which is not a defined tool`);
    return names;
  }

  return {
    toolName,
    route(name, rawConfig) {
      try {
        const config = configOf(rawConfig);
        const names = offered(config);
        if (name === toolName) {
          // Selu wants a top-level array (`{"tools": [...]}` is refused) without terminal_on_success.
          const list = describeTools()
            .filter((t) => names.has(t.name))
            .map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema, recommended_policy: t.recommended_policy }));
          return { ok: true, resultJson: Buffer.from(JSON.stringify(list), "utf8") };
        }
        if (names.has(name)) return undefined;
        const available = [...names].join(", ") || "no tools";
        if (!tools.has(name)) return { ok: false, error: `unknown tool ${JSON.stringify(name)}; this capability offers: ${available}` };
        const why = spec.refusal?.(name, config);
        return { ok: false, error: `tool ${name} is not offered in this configuration${why ? `: ${why}` : ""}; it offers: ${available}` };
      } catch (err) {
        if (err instanceof ToolError) return { ok: false, error: err.message };
        throw err;
      }
    },
  };
}
