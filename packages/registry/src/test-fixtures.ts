import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** The repository root, for tests that read the real capabilities. */
export const REPO_ROOT = join(import.meta.dirname, "..", "..", "..");

/** Writes `files` (path → text) into a fresh temp directory and returns it. */
export function tempTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "registry-test-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** A small capability's files under `capabilities/<dir>/`, with one ask tool and one system credential. */
export function capabilityFiles(dir: string, overrides: Record<string, string> = {}): Record<string, string> {
  const base: Record<string, string> = {
    "manifest.yaml": `id: ${dir}
class: tool
image: ghcr.io/o/selu-cap-${dir}:1.2.3
credentials:
  - name: API_TOKEN
    scope: system
    required: true
    description: Token for the API
tools:
  - name: send_note
    description: Sends a note to the PDF service. Returns its id.
    input_schema:
      type: object
      properties:
        text:
          type: string
          description: The note
      required: [text]
      additionalProperties: false
    recommended_policy: ask
    terminal_on_success: false
`,
    "package.json": JSON.stringify({ name: `@t/${dir}`, version: "1.2.3", description: "Notes for tests." }),
    "README.md": `# ${dir}\n\nSends notes.\nFor tests.\n\n## Tools\n\n| tool | inputs | behaviour | side effects | policy |\n|---|---|---|---|---|\n| \`send_note\` | \`text\` | sends | sends | ask |\n\n- Limits: 128 MB memory.\n`,
    "prompt.md": "Use send_note to send notes.\n",
    "prompt.de.md": "Nutze send_note, um Notizen zu senden.\n",
    "agent/de.yaml": `agent:
  name: Notizen
  description: Notizen für Tests.
tools:
  send_note:
    display_name: Notiz senden
    description: Sendet eine Notiz.
    input:
      text: Die Notiz
    approval:
      label: Notiz senden
      message: Ich möchte diese Notiz senden.
credentials:
  API_TOKEN: Token für die API
`,
  };
  const out: Record<string, string> = {};
  for (const [path, text] of Object.entries({ ...base, ...overrides })) out[`capabilities/${dir}/${path}`] = text;
  return out;
}

/**
 * A capability whose tools are discovered at run time (`tool_source: dynamic`), with its built code:
 * `dist/capability.js` describes a reading tool and an `ask` writing tool, as the kit's describe() does.
 */
export function dynamicCapabilityFiles(dir: string, overrides: Record<string, string> = {}): Record<string, string> {
  const tool = (name: string, description: string, policy: string) => ({
    name,
    description,
    input_schema: { type: "object", properties: { path: { type: "string", description: "File in the store" } }, required: ["path"] },
    recommended_policy: policy,
    terminal_on_success: false,
  });
  const description = {
    id: dir,
    tool_source: "dynamic",
    discovery_tool_name: "list_tools",
    tools: [tool("read_note", "Reads a note.", "allow"), tool("write_note", "Writes a note. Replaces an old one.", "ask")],
    credentials: [{ name: "READ_ONLY", scope: "system", required: false, description: "Offer only read_note" }],
  };
  return capabilityFiles(dir, {
    "manifest.yaml": `id: ${dir}\nclass: tool\nimage: ghcr.io/o/selu-cap-${dir}:1.2.3\ntool_source: dynamic\ncredentials:\n  - {name: READ_ONLY, scope: system, required: false, description: Offer only read_note}\ntools: []\n`,
    "dist/capability.js": `export default { describe: () => (${JSON.stringify(description)}) };\n`,
    "agent/de.yaml": `agent: {name: Notizen, description: Notizen für Tests.}
tools:
  read_note: {display_name: Notiz lesen, description: Liest eine Notiz.}
  write_note:
    display_name: Notiz schreiben
    description: Schreibt eine Notiz.
    approval: {label: Notiz schreiben, message: Ich möchte diese Notiz schreiben.}
credentials: {READ_ONLY: Nur read_note anbieten}
`,
    "README.md": `# ${dir}\n\nNotes.\n\n- Limits: 128 MB memory.\n`,
    ...overrides,
  });
}
