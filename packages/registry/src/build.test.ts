import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildRegistry, marketplaceIndex } from "./build.js";
import { marketplaceSchema } from "./selu-schemas.js";
import { capabilityFiles, dynamicCapabilityFiles, tempTree } from "./test-fixtures.js";

describe("buildRegistry", () => {
  it("lists one marketplace agent per capability in Selu's format", async () => {
    const root = tempTree({ ...capabilityFiles("notes"), ...capabilityFiles("alpha") });
    const build = await buildRegistry(root);
    const index = marketplaceSchema.parse(marketplaceIndex(build.agents, "https://example.org/r/"));
    expect(index.agents.map((a) => a.id)).toEqual(["alpha", "notes"]);
    expect(index.agents[1]).toEqual({
      id: "notes",
      name: "Notes",
      description: "Notes for tests.",
      version: "1.2.3",
      author: "Selu capability catalogue contributors",
      archive_url: "https://example.org/r/notes-1.2.3.tar.gz",
      archive_sha256: build.agents[1]!.sha256,
      capability_images: ["ghcr.io/o/selu-cap-notes:1.2.3"],
      name_localizations: { en: "Notes", de: "Notizen" },
      description_localizations: { en: "Notes for tests.", de: "Notizen für Tests." },
    });
  });

  it("gives archives that depend only on the files", async () => {
    const a = await buildRegistry(tempTree(capabilityFiles("notes")));
    const b = await buildRegistry(tempTree(capabilityFiles("notes")));
    expect(a.agents[0]!.sha256).toBe(b.agents[0]!.sha256);
  });

  it("refuses two capabilities with one id, naming both", async () => {
    const root = tempTree({ ...capabilityFiles("notes"), ...capabilityFiles("other", { "manifest.yaml": capabilityFiles("notes")["capabilities/notes/manifest.yaml"]! }) });
    await expect(buildRegistry(root)).rejects.toThrow(/capabilities\/other: id "notes" is also the id of .*capabilities\/notes/);
  });

  it("refuses a manifest Selu would skip, with its line", async () => {
    const root = tempTree(capabilityFiles("notes", { "manifest.yaml": "id: notes\nimage: ghcr.io/o/x:1\ntools: []\n" }));
    await expect(buildRegistry(root)).rejects.toThrow(/manifest.yaml: Selu would not load it as is:\n.*manifest.yaml:1: class: /);
  });

  it("refuses a version Selu can't compare", async () => {
    const root = tempTree(capabilityFiles("notes", { "package.json": JSON.stringify({ version: "1.2", description: "d" }) }));
    await expect(buildRegistry(root)).rejects.toThrow(/package.json: version "1.2" is not MAJOR.MINOR.PATCH/);
  });

  it("reports a capability without German strings, saying what to add", async () => {
    const files = capabilityFiles("notes");
    delete files["capabilities/notes/agent/de.yaml"];
    delete files["capabilities/notes/prompt.de.md"];
    const build = await buildRegistry(tempTree(files));
    expect(build.germanProblems).toHaveLength(1);
    expect(build.germanProblems[0]).toMatch(/capabilities\/notes: German strings incomplete:\n  prompt.de.md: missing .*\n  agent\/de.yaml: missing/);
    // Without them the package still loads: German falls back to English.
    expect(build.agents[0]!.pkg.strings.de.tools.send_note!.display_name).toBe("Send note");
  });
});

describe("a capability whose tools are discovered at run time", () => {
  it("is listed with tools discovered at run time", async () => {
    const build = await buildRegistry(tempTree(dynamicCapabilityFiles("notes")));
    const entry = JSON.parse(build.registry["catalogue.json"]).capabilities[0];
    expect(entry).toMatchObject({ tool_source: "dynamic", discovery_tool_name: "list_tools", tools: "discovered at run time" });
    expect(build.germanProblems).toEqual([]);
  });

  it("gets strings for every tool its code may offer, in English and German, approvals included", async () => {
    const build = await buildRegistry(tempTree(dynamicCapabilityFiles("notes")));
    const files = new Map(build.agents[0]!.pkg.files.map((f) => [f.path, parse(Buffer.from(f.bytes).toString("utf8"))]));
    expect(files.get("i18n/en.yaml").capabilities.notes.tools).toEqual({
      read_note: { display_name: "Read note", description: "Reads a note.", input: { path: { description: "File in the store" } } },
      write_note: { display_name: "Write note", description: "Writes a note. Replaces an old one.", input: { path: { description: "File in the store" } } },
    });
    expect(files.get("i18n/en.yaml").approval.tools).toEqual({ notes__write_note: { label: "Write note", message: "Writes a note." } });
    expect(files.get("i18n/de.yaml").capabilities.notes.tools.write_note.display_name).toBe("Notiz schreiben");
    expect(files.get("i18n/de.yaml").approval.tools).toEqual({ notes__write_note: { label: "Notiz schreiben", message: "Ich möchte diese Notiz schreiben." } });
  });

  it("reports each discoverable tool the German strings lack", async () => {
    const build = await buildRegistry(tempTree(dynamicCapabilityFiles("notes", { "agent/de.yaml": "agent: {name: N, description: D}\ncredentials: {READ_ONLY: R}\n" })));
    expect(build.germanProblems[0]!.split("\n").slice(1)).toEqual([
      "  agent/de.yaml: tools.read_note.display_name: missing",
      "  agent/de.yaml: tools.read_note.description: missing",
      "  agent/de.yaml: tools.write_note.display_name: missing",
      "  agent/de.yaml: tools.write_note.description: missing",
      "  agent/de.yaml: tools.write_note.approval.label: missing",
      "  agent/de.yaml: tools.write_note.approval.message: missing",
    ]);
  });

  it("refuses a tool name discovery may offer that the model can't take", async () => {
    const root = tempTree(dynamicCapabilityFiles("notes"));
    const code = join(root, "capabilities/notes/dist/capability.js");
    writeFileSync(code, readFileSync(code, "utf8").replace('"name":"write_note"', '"name":"Write-Note"'));
    await expect(buildRegistry(root)).rejects.toThrow(/capabilities\/notes: a tool discovery may offer: "Write-Note" is not a snake_case identifier/);
  });

  it("refuses to build one whose code is not built, saying what to run", async () => {
    const root = tempTree(dynamicCapabilityFiles("notes"));
    rmSync(join(root, "capabilities/notes/dist"), { recursive: true });
    await expect(buildRegistry(root)).rejects.toThrow(/capabilities\/notes\/dist\/capability.js: not found; build the capability first/);
  });
});
