import type { Policy } from "./define.js";

/**
 * A capability's tools and credentials in the manifest's shape (snake_case keys, as Selu reads them).
 * `Capability.describe()` produces it; the manifest tooling writes and checks manifest.yaml against it.
 */
export interface CapabilityDescription {
  id: string;
  tools: ToolDescription[];
  credentials: CredentialDescription[];
}

export interface ToolDescription {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  recommended_policy: Policy;
  terminal_on_success: boolean;
}

export interface CredentialDescription {
  name: string;
  scope: "user" | "system";
  required: boolean;
  description: string;
  credential_type?: string;
}
