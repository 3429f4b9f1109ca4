// Shared test data: manifests Selu accepts and the code description that matches the tool one.
import type { CapabilityDescription } from "./description.js";
import type { ManifestProblem } from "./problem.js";

export const TOOL_MANIFEST = `# The manifest Selu reads.
id: demo
class: tool
image: ghcr.io/selu-catalogue/selu-cap-demo:1.0.0
network:
  mode: allowlist
  hosts: ["api.example.com:443", "*.example.org"]
tools:
  - name: do_it
    description: Does it
    input_schema:
      type: object
      properties:
        a: { type: string }
      required: [a]
    recommended_policy: allow
credentials:
  - name: API_TOKEN
    scope: user
    description: Token for the API
`;

export const ENVIRONMENT_MANIFEST = `id: sandbox
class: environment
image: ghcr.io/selu-catalogue/selu-cap-sandbox:2.0.0
filesystem: workspace
cache: { enabled: true }
tools:
  - name: run_command
    description: Runs a command in the workspace
    input_schema: { type: object, properties: { command: { type: string } }, required: [command] }
    recommended_policy: ask
`;

export const DYNAMIC_MANIFEST = `id: mcp-bridge
class: tool
image: ghcr.io/selu-catalogue/selu-cap-mcp-bridge:0.3.0
tool_source: dynamic
tools: []
credentials:
  - name: SERVER_URL
    scope: system
`;

/** The code description that TOOL_MANIFEST was written from. */
export function toolCode(): CapabilityDescription {
  return {
    id: "demo",
    tools: [
      {
        name: "do_it",
        description: "Does it",
        input_schema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        recommended_policy: "allow",
        terminal_on_success: false,
      },
    ],
    credentials: [{ name: "API_TOKEN", scope: "user", required: true, description: "Token for the API" }],
  };
}

/** `path: message` lines, which read well in a failing assertion. */
export function lines(problems: readonly ManifestProblem[]): string[] {
  return problems.map((p) => `${p.path}: ${p.message}`);
}

/** Only the paths, for tests about where a problem is. */
export function paths(problems: readonly ManifestProblem[]): string[] {
  return problems.map((p) => p.path);
}
