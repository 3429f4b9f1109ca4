import { describe, expect, it } from "vitest";
import { buildRegistry, marketplaceIndex } from "./build.js";
import { marketplaceSchema } from "./selu-schemas.js";
import { capabilityFiles, tempTree } from "./test-fixtures.js";

describe("buildRegistry", () => {
  it("lists one marketplace agent per capability in Selu's format", () => {
    const root = tempTree({ ...capabilityFiles("notes"), ...capabilityFiles("alpha") });
    const build = buildRegistry(root);
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

  it("gives archives that depend only on the files", () => {
    const a = buildRegistry(tempTree(capabilityFiles("notes")));
    const b = buildRegistry(tempTree(capabilityFiles("notes")));
    expect(a.agents[0]!.sha256).toBe(b.agents[0]!.sha256);
  });

  it("refuses two capabilities with one id, naming both", () => {
    const root = tempTree({ ...capabilityFiles("notes"), ...capabilityFiles("other", { "manifest.yaml": capabilityFiles("notes")["capabilities/notes/manifest.yaml"]! }) });
    expect(() => buildRegistry(root)).toThrow(/capabilities\/other: id "notes" is also the id of .*capabilities\/notes/);
  });

  it("refuses a manifest Selu would skip, with its line", () => {
    const root = tempTree(capabilityFiles("notes", { "manifest.yaml": "id: notes\nimage: ghcr.io/o/x:1\ntools: []\n" }));
    expect(() => buildRegistry(root)).toThrow(/manifest.yaml: Selu would not load it as is:\n.*manifest.yaml:1: class: /);
  });

  it("refuses a version Selu can't compare", () => {
    const root = tempTree(capabilityFiles("notes", { "package.json": JSON.stringify({ version: "1.2", description: "d" }) }));
    expect(() => buildRegistry(root)).toThrow(/package.json: version "1.2" is not MAJOR.MINOR.PATCH/);
  });

  it("reports a capability without German strings, saying what to add", () => {
    const files = capabilityFiles("notes");
    delete files["capabilities/notes/agent/de.yaml"];
    delete files["capabilities/notes/prompt.de.md"];
    const build = buildRegistry(tempTree(files));
    expect(build.germanProblems).toHaveLength(1);
    expect(build.germanProblems[0]).toMatch(/capabilities\/notes: German strings incomplete:\n  prompt.de.md: missing .*\n  agent\/de.yaml: missing/);
    // Without them the package still loads: German falls back to English.
    expect(build.agents[0]!.pkg.strings.de.tools.send_note!.display_name).toBe("Send note");
  });
});

describe("a capability whose tools are discovered at run time", () => {
  it("is listed with tools discovered at run time and packaged without tool strings", () => {
    const dynamicManifest =
      "id: notes\nclass: tool\nimage: ghcr.io/o/selu-cap-notes:1.2.3\ntool_source: dynamic\ncredentials:\n  - {name: API_TOKEN, scope: system, required: true, description: Token for the API}\n";
    const german = "agent: {name: Notizen, description: Notizen.}\ncredentials: {API_TOKEN: Token}\n";
    const build = buildRegistry(tempTree(capabilityFiles("notes", { "manifest.yaml": dynamicManifest, "agent/de.yaml": german })));
    const entry = JSON.parse(build.registry["catalogue.json"]).capabilities[0];
    expect(entry).toMatchObject({ tool_source: "dynamic", discovery_tool_name: "list_tools", tools: "discovered at run time" });
    expect(build.germanProblems).toEqual([]);
  });
});
