import { describe, expect, it } from "vitest";
import { loadCapabilitySource } from "./capability-source.js";
import { englishStrings, firstParagraph } from "./english.js";
import { capabilityFiles, tempTree } from "./test-fixtures.js";

describe("englishStrings", () => {
  it("derives every string from the capability's files", async () => {
    const root = tempTree(capabilityFiles("notes"));
    expect(englishStrings(await loadCapabilitySource(`${root}/capabilities/notes`))).toEqual({
      agent: { name: "Notes", description: "Notes for tests.", long_description: "Sends notes. For tests." },
      tools: {
        send_note: {
          display_name: "Send note",
          description: "Sends a note to the PDF service. Returns its id.",
          input: { text: "The note" },
          approval: { label: "Send note", message: "Sends a note to the PDF service." },
        },
      },
      credentials: { API_TOKEN: "Token for the API" },
    });
  });

  it("names the agent after its directory without the catalogue- prefix", async () => {
    const root = tempTree(capabilityFiles("catalogue-web-notes"));
    expect(englishStrings(await loadCapabilitySource(`${root}/capabilities/catalogue-web-notes`)).agent.name).toBe("Web notes");
  });

  it("takes the agent name from package.json's displayName when there is one", async () => {
    const root = tempTree(capabilityFiles("notes", { "package.json": JSON.stringify({ version: "1.0.0", description: "d", displayName: "Note Taker" }) }));
    expect(englishStrings(await loadCapabilitySource(`${root}/capabilities/notes`)).agent.name).toBe("Note Taker");
  });
});

describe("firstParagraph", () => {
  it("joins the README's first paragraph after the title", () => {
    expect(firstParagraph("# x\n\nOne\ntwo.\n\nThree.")).toBe("One two.");
    expect(firstParagraph("# x\n\n## Tools\n")).toBeUndefined();
  });
});
