import { tool, type ToolDefinition, type ToolHelpers } from "./tool.js";
import type { CredentialSpecs } from "./tool-context.js";
import { toolJsonSchema } from "./json-schema.js";
import { DEFAULT_LIMITS, type LimitOverrides, type Limits } from "./limits.js";
import type { CapabilityDescription } from "./description.js";
import { createDiscovery, DEFAULT_DISCOVERY_TOOL, type Discovery, type DiscoverySpec } from "./discovery/dynamic-tools.js";

export interface CapabilitySpec<C extends CredentialSpecs> {
  /** The manifest id: lowercase letters, digits and hyphens (it prefixes tool names and names containers). */
  id: string;
  /** Credentials, declared once: the manifest's `credentials` and the typed `ctx.credentials` come from here. */
  credentials?: C;
  /** The tools, or a function that receives a `tool` helper typed with this capability's credentials. */
  tools: Record<string, ToolDefinition<C>> | ((helpers: ToolHelpers<C>) => Record<string, ToolDefinition<C>>);
  /**
   * Overrides of the kit's bounds for this capability. `calls.max` is the concurrency the capability
   * declares (for a shared one, the manifest's `sharing.max_concurrent`).
   */
  limits?: LimitOverrides;
  /**
   * Readiness check run at start-up (retried until it passes): Healthcheck answers ready only after it
   * resolves. Throw with a message saying what is missing.
   */
  ready?: () => Promise<void> | void;
  /**
   * Makes the tool set dynamic (manifest `tool_source: dynamic`): which tools the configuration offers.
   * The kit answers Selu's discovery call and refuses the tools not offered. See `DiscoverySpec`.
   */
  discovery?: DiscoverySpec<C>;
}

/** A defined capability: data the server, the manifest tooling and tests read. */
export interface Capability<C extends CredentialSpecs = CredentialSpecs> {
  readonly id: string;
  readonly credentials: Readonly<C>;
  readonly tools: ReadonlyMap<string, ToolDefinition<C>>;
  readonly limits: Readonly<Limits>;
  readonly ready: (() => Promise<void> | void) | undefined;
  /** Set when the tool set is dynamic: answers discovery and refuses tools not offered. */
  readonly discovery: Discovery | undefined;
  /** Tools and credentials in the manifest's shape, JSON Schemas converted once and cached. */
  describe(): CapabilityDescription;
}

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const TOOL_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const CREDENTIAL_NAME = /^[A-Z][A-Z0-9_]*$/;

/**
 * Defines a capability from its tools. Names are checked here, at definition, so a bad name fails the
 * build and tests rather than a call in production.
 *
 * @example
 * export default defineCapability({
 *   id: "echo",
 *   tools: { echo: tool({ description: "Echoes text", input: z.object({ text: z.string() }), policy: "allow",
 *     run: ({ text }) => ({ text }) }) },
 * });
 */
export function defineCapability<C extends CredentialSpecs = Record<never, never>>(spec: CapabilitySpec<C>): Capability<C> {
  if (!ID.test(spec.id)) {
    throw new TypeError(`defineCapability: id ${JSON.stringify(spec.id)} must be lowercase letters, digits and single hyphens`);
  }
  const credentials = (spec.credentials ?? {}) as C;
  for (const name of Object.keys(credentials)) {
    if (!CREDENTIAL_NAME.test(name)) {
      throw new TypeError(`defineCapability: credential ${JSON.stringify(name)} must be UPPER_SNAKE_CASE`);
    }
  }
  const defs = typeof spec.tools === "function" ? spec.tools({ tool }) : spec.tools;
  const tools = new Map<string, ToolDefinition<C>>();
  for (const [name, def] of Object.entries(defs)) {
    if (!TOOL_NAME.test(name)) {
      throw new TypeError(`defineCapability: tool name ${JSON.stringify(name)} must be snake_case (a-z, 0-9, single _)`);
    }
    for (const need of def.needs ?? []) {
      if (!(need in credentials)) throw new TypeError(`defineCapability: tool ${name} needs undeclared credential ${need}`);
    }
    tools.set(name, def);
  }
  if (tools.size === 0) throw new TypeError("defineCapability: a capability needs at least one tool");
  const limits: Readonly<Limits> = Object.freeze({
    ...DEFAULT_LIMITS,
    ...spec.limits,
    args: Object.freeze({ ...DEFAULT_LIMITS.args, ...spec.limits?.args }),
    calls: Object.freeze({ ...DEFAULT_LIMITS.calls, ...spec.limits?.calls }),
  });
  let description: CapabilityDescription | undefined;
  const discoveryTool = spec.discovery ? (spec.discovery.toolName ?? DEFAULT_DISCOVERY_TOOL) : undefined;
  const describeOnce = (): CapabilityDescription => (description ??= describe(spec.id, tools, credentials, discoveryTool));
  const discovery = spec.discovery ? createDiscovery(spec.discovery, tools, credentials, () => describeOnce().tools) : undefined;
  return {
    id: spec.id,
    credentials,
    tools,
    limits,
    ready: spec.ready,
    discovery,
    describe: describeOnce,
  };
}

function describe(id: string, tools: ReadonlyMap<string, ToolDefinition<never>>, credentials: CredentialSpecs, discoveryTool: string | undefined): CapabilityDescription {
  return {
    id,
    // A dynamic capability's tools are every tool it can offer; the manifest lists none (Selu asks).
    ...(discoveryTool ? { tool_source: "dynamic" as const, discovery_tool_name: discoveryTool } : {}),
    tools: [...tools].map(([name, def]) => ({
      name,
      description: def.description,
      input_schema: toolJsonSchema(def.input),
      recommended_policy: def.policy,
      terminal_on_success: def.terminalOnSuccess,
    })),
    credentials: Object.entries(credentials).map(([name, c]) => ({
      name,
      scope: c.scope,
      required: c.required ?? true,
      description: c.description,
      ...(c.type ? { credential_type: c.type } : {}),
    })),
  };
}

/** The credentials a tool needs before it may run: its `needs`, else every required one. */
export function neededCredentials(def: ToolDefinition<never>, credentials: CredentialSpecs): readonly string[] {
  return def.needs ?? Object.keys(credentials).filter((name) => credentials[name]?.required ?? true);
}
