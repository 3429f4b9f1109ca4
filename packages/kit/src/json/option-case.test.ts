import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fixOptionCase } from "./option-case.js";

const paragraph = z.object({ type: z.literal("paragraph"), text: z.string() }).strict();
const pageBreak = z.object({ type: z.literal("page_break") }).strict();
const list = z.object({ type: z.literal("list"), items: z.array(z.string()), align: z.enum(["left", "right"]).optional() }).strict();
const schema = z
  .object({
    page_size: z.enum(["A4", "Letter"]).optional(),
    mode: z.enum(["fast", "Fast"]).optional(),
    content: z.union([z.array(z.union([z.string(), z.discriminatedUnion("type", [paragraph, pageBreak, list])])), z.string()]),
  })
  .strict();

/** Parses, fixes what the issues point at, parses again (as the kit does in invoke). */
function read(value: Record<string, unknown>) {
  let parsed = schema.safeParse(value);
  let fixed = false;
  // As the kit's invoke does: again after a fix, when a union's branch is found only then.
  for (let round = 0; round < 3 && !parsed.success && fixOptionCase(parsed.error.issues, value); round++) {
    fixed = true;
    parsed = schema.safeParse(value);
  }
  return { value, fixed, ok: parsed.success };
}

describe("fixOptionCase", () => {
  it("takes enum values and union discriminators in another case or spelling as meant, at any depth", () => {
    const result = read({
      page_size: "a4",
      content: ["text", { type: "Paragraph", text: "x" }, { type: "Page Break" }, { type: "LIST", items: [], align: "Right" }],
    });
    expect(result).toMatchObject({ fixed: true, ok: true });
    expect(result.value).toEqual({
      page_size: "A4",
      content: ["text", { type: "paragraph", text: "x" }, { type: "page_break" }, { type: "list", items: [], align: "right" }],
    });
  });

  it("leaves a value alone when no option or more than one matches, so validation names it", () => {
    expect(read({ mode: "FAST", content: "x" })).toMatchObject({ fixed: false, ok: false, value: { mode: "FAST" } });
    expect(read({ page_size: "A5", content: [{ type: "table" }] })).toMatchObject({ fixed: false, ok: false });
  });

  it("changes nothing in arguments that are valid or wrong in another way", () => {
    expect(read({ page_size: "Letter", content: "x" })).toMatchObject({ fixed: false, ok: true });
    expect(read({ page_size: 4, content: 5 } as never)).toMatchObject({ fixed: false, ok: false });
  });
});
