import { describe, expect, it } from "vitest";
import { z } from "zod";
import { advertiseAs, toolJsonSchema } from "./json-schema.js";

describe("advertiseAs", () => {
  it("advertises the given JSON for its copy of the schema only, the original keeps its own (no module state)", () => {
    const list = z.array(z.string());
    const advertised = advertiseAs(list, { type: "array", description: "files", items: { type: "object" } });
    const json = toolJsonSchema(z.object({ plain: list, files: advertised })) as { properties: Record<string, unknown> };
    expect(json.properties.plain).toEqual({ type: "array", items: { type: "string" } });
    expect(json.properties.files).toEqual({ type: "array", description: "files", items: { type: "object" } });
  });
});
