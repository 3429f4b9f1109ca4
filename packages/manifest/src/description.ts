/** How Selu treats a tool until an admin decides: run it, ask the user first, or refuse it. */
export type Policy = "allow" | "ask" | "block";

/**
 * A capability's tools and credentials as its code defines them, in the manifest's shape (snake_case
 * keys, as Selu reads them). The server kit produces it from its tool definitions (`describe()`); this
 * package writes manifest.yaml from it and checks manifest.yaml against it, so the two can't drift.
 */
export interface CapabilityDescription {
  id: string;
  /** `dynamic` when the tools come from a discovery call at run time (then `tools` is every tool it may offer). */
  tool_source?: "manifest" | "dynamic";
  /** The discovery tool's name, for `tool_source: dynamic`. */
  discovery_tool_name?: string;
  tools: ToolDescription[];
  credentials: CredentialDescription[];
}

/** One tool as the code defines it: what the model sees and the policy it starts with. */
export interface ToolDescription {
  name: string;
  description: string;
  /** JSON Schema of the arguments; its root is `type: object`. */
  input_schema: Record<string, unknown>;
  recommended_policy: Policy;
  terminal_on_success: boolean;
}

/** One credential the code reads from `config_json`. */
export interface CredentialDescription {
  name: string;
  scope: "user" | "system";
  required: boolean;
  description: string;
  /** Selu's default is `secret` when absent. */
  credential_type?: string;
}
