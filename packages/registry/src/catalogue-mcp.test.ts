import { describe, expect, it } from "vitest";
import { buildRegistry } from "./build.js";
import { catalogueSchema } from "./catalogue.js";
import { capabilityFiles, tempTree } from "./test-fixtures.js";

describe("the catalogue's MCP launch command (issue 19)", () => {
  it("runs the published image's own start command with --mcp stdio, credentials passed by name", async () => {
    const pkg = JSON.stringify({ name: "@t/notes", version: "1.2.3", description: "Notes for tests.", scripts: { start: "node --max-old-space-size=32 dist/bundle/main.js" } });
    const build = await buildRegistry(tempTree(capabilityFiles("notes", { "package.json": pkg })));
    const entry = catalogueSchema.parse(JSON.parse(build.registry["catalogue.json"]!)).capabilities[0]!;
    expect(entry.mcp).toEqual({
      command: "docker",
      args: ["run", "-i", "--rm", "-e", "API_TOKEN", "ghcr.io/o/selu-cap-notes:1.2.3", "node", "--max-old-space-size=32", "dist/bundle/main.js", "--mcp", "stdio"],
    });
  });
});
