import { describe, expect, it } from "vitest";
import { buildAgentPackage } from "./agent-package.js";
import { loadCapabilitySource } from "./capability-source.js";
import { checkAgentPackage } from "./check-package.js";
import { capabilityFiles, dynamicCapabilityFiles, tempTree } from "./test-fixtures.js";

async function packageFiles(overrides: Record<string, string> = {}): Promise<Map<string, Uint8Array>> {
  const root = tempTree(capabilityFiles("notes"));
  const pkg = buildAgentPackage(await loadCapabilitySource(`${root}/capabilities/notes`));
  const files = new Map<string, Uint8Array>(pkg.files.map((f) => [f.path, f.bytes]));
  for (const [path, text] of Object.entries(overrides)) files.set(path, Buffer.from(text));
  return files;
}

describe("checkAgentPackage", () => {
  it("loads a generated package without problems", async () => {
    const { loaded, problems } = checkAgentPackage(await packageFiles());
    expect(problems).toEqual([]);
    expect(loaded!.agent).toMatchObject({ id: "notes", routing: "auto", install_steps: [{ id: "api_token", store_as: { scope: "system_credential", credential_name: "API_TOKEN" } }] });
    expect([...loaded!.locales.keys()]).toEqual(["de", "en"]);
  });

  it("reports an i18n file Selu can't deserialise, naming the file and key", async () => {
    const { problems } = checkAgentPackage(await packageFiles({ "i18n/fr.yml": "agent:\n  name: [not, a, string]\n" }));
    expect(problems).toEqual(["i18n/fr.yml: agent.name: Invalid input: expected string, received array"]);
  });

  it("reports an i18n file that is not YAML", async () => {
    const { problems } = checkAgentPackage(await packageFiles({ "i18n/de.yaml": "agent: {name: x\n" }));
    expect(problems[0]).toMatch(/^i18n\/de.yaml: not valid YAML: /);
  });

  it("reports a duplicate key, which serde refuses", async () => {
    const { problems } = checkAgentPackage(await packageFiles({ "i18n/de.yaml": "agent:\n  name: a\n  name: b\n" }));
    expect(problems[0]).toMatch(/^i18n\/de.yaml: not valid YAML: Map keys must be unique/);
  });

  it("reports a missing approval text for an ask tool", async () => {
    const { problems } = checkAgentPackage(
      await packageFiles({
        "i18n/de.yaml":
          "agent: {name: N, description: D}\ninstall_steps: {api_token: {label: T}}\ncapabilities:\n  notes:\n    tools:\n      send_note: {display_name: S, description: D, input: {text: {description: T}}}\n    credentials: {API_TOKEN: {description: T}}\n",
      }),
    );
    expect(problems).toEqual(["i18n/de.yaml: approval.tools.notes__send_note.label: missing", "i18n/de.yaml: approval.tools.notes__send_note.message: missing"]);
  });

  it("reports agent.yaml values Selu's types refuse", async () => {
    const { problems } = checkAgentPackage(await packageFiles({ "agent.yaml": "id: a\nname: A\nrouting: sometimes\nsession: {idle_timeout_minutes: 1.5}\n" }));
    expect(problems).toEqual([
      'agent.yaml: routing: Invalid option: expected one of "inline"|"delegate"|"auto"',
      "agent.yaml: session.idle_timeout_minutes: Invalid input: expected int, received number",
    ]);
  });

  it("reports a supported locale without its file", async () => {
    const files = await packageFiles();
    files.delete("i18n/de.yaml");
    expect(checkAgentPackage(files).problems).toEqual(['i18n/de.yaml: missing for supported locale "de"']);
  });

  it("reports a manifest Selu would skip", async () => {
    const { problems } = checkAgentPackage(await packageFiles({ "capabilities/notes/manifest.yaml": "id: notes\nimage: x:1\n" }));
    expect(problems.some((p) => p.startsWith("capabilities/notes/manifest.yaml"))).toBe(true);
  });

  it("reports an install step that stores a credential no manifest declares", async () => {
    const yaml =
      "id: notes\nname: N\ni18n: {supported_locales: [en]}\ninstall_steps:\n  - {id: s, type: input, label: L, store_as: {scope: system_credential, capability_id: notes, credential_name: OTHER}}\n";
    const { problems } = checkAgentPackage(await packageFiles({ "agent.yaml": yaml }));
    expect(problems).toContain("agent.yaml: install_steps.s.store_as: names notes/OTHER, which no manifest in the package declares");
  });

  it("checks the strings of the tools a dynamic capability discovers, which its manifest doesn't list", async () => {
    const root = tempTree(dynamicCapabilityFiles("notes"));
    const source = await loadCapabilitySource(`${root}/capabilities/notes`);
    const files = new Map<string, Uint8Array>(buildAgentPackage(source).files.map((f) => [f.path, f.bytes]));
    expect(checkAgentPackage(files, new Map([["notes", source.tools]])).problems).toEqual([]);
    const more = [...source.tools, { name: "erase_note", input_schema: { type: "object" }, recommended_policy: "ask" as const }];
    expect(checkAgentPackage(files, new Map([["notes", more]])).problems).toEqual([
      "i18n/en.yaml: capabilities.notes.tools.erase_note.display_name: missing",
      "i18n/en.yaml: capabilities.notes.tools.erase_note.description: missing",
      "i18n/en.yaml: approval.tools.notes__erase_note.label: missing",
      "i18n/en.yaml: approval.tools.notes__erase_note.message: missing",
      "i18n/de.yaml: capabilities.notes.tools.erase_note.display_name: missing",
      "i18n/de.yaml: capabilities.notes.tools.erase_note.description: missing",
      "i18n/de.yaml: approval.tools.notes__erase_note.label: missing",
      "i18n/de.yaml: approval.tools.notes__erase_note.message: missing",
    ]);
  });

  it("reports an approval label that differs from the tool's display name, which Selu would show instead", async () => {
    const files = await packageFiles();
    const de = Buffer.from(files.get("i18n/de.yaml")!).toString("utf8").replace("label: Notiz senden", "label: Senden");
    files.set("i18n/de.yaml", Buffer.from(de));
    expect(checkAgentPackage(files).problems).toEqual([
      'i18n/de.yaml: approval.tools.notes__send_note.label: "Senden" differs from the tool\'s display_name "Notiz senden"; Selu shows the label as the tool\'s name',
    ]);
  });
});
