// The manifest package owns the shape manifest.yaml and `Capability.describe()` share.
export type { CapabilityDescription, CredentialDescription, ToolDescription } from "@selu-catalogue/manifest";
