// The manifest package declares the description once (a zod schema); the kit only needs its types, so
// this import is erased at build time and the manifest package (and its YAML parser) never loads here.
export type { CapabilityDescription, CredentialDescription, Policy, ToolDescription } from "@selu-catalogue/manifest";
