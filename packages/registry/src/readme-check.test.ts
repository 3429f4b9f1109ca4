import { parseManifest } from "@selu-catalogue/manifest";
import { describe, expect, it } from "vitest";
import { checkReadme } from "./readme-check.js";
import { capabilityFiles } from "./test-fixtures.js";

const files = capabilityFiles("notes");
const manifest = parseManifest(files["capabilities/notes/manifest.yaml"]!).manifest!;
const readme = files["capabilities/notes/README.md"]!;

describe("checkReadme", () => {
  it("accepts a table with one row per tool and the code's policies", () => {
    expect(checkReadme(readme, manifest)).toEqual([]);
  });

  it("names a tool without a row, a row without a tool and a wrong policy", () => {
    const changed = readme.replace("| `send_note` | `text` | sends | sends | ask |", "| `send_notes` | `text` | sends | sends | ask |\n| `other` | x | y | z | allow |");
    expect(checkReadme(changed, manifest)).toEqual(["## Tools: no row for `send_note`", "## Tools: `send_notes` is not a tool of the capability", "## Tools: `other` is not a tool of the capability"]);
    expect(checkReadme(readme.replace("| ask |", "| allow |"), manifest)).toEqual(["## Tools: `send_note` says policy allow; the code says ask"]);
  });

  it("names the memory limit the README doesn't state", () => {
    expect(checkReadme(readme.replace("128 MB", "lots of"), manifest)).toEqual(["doesn't state the memory limit, 128 MB (resources.max_memory_mb)"]);
  });

  it("checks a row for every tool discovery may offer, without their policies", () => {
    const dynamic = parseManifest("id: d\nclass: tool\nimage: ghcr.io/o/d:1.0.0\ntool_source: dynamic\n").manifest!;
    const offered = [
      { name: "send_note", recommended_policy: "allow" as const },
      { name: "erase_note", recommended_policy: "ask" as const },
    ];
    expect(checkReadme(readme, dynamic, offered)).toEqual(["## Tools: no row for `erase_note`"]);
    expect(checkReadme(readme.replace("| ask |", "| allow |"), dynamic, offered.slice(0, 1))).toEqual([]);
  });
});
