import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatIssues } from "./validation.js";

const issuesOf = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("expected a failure");
  return formatIssues(parsed.error.issues);
};

describe("formatIssues", () => {
  const item = z.union([z.string(), z.object({ text: z.string(), items: z.array(z.string()).optional() }).strict()]);
  const list = z.object({ items: z.array(item) });

  it("reports a union's problem in the branch the value was meant for, at its full path", () => {
    expect(issuesOf(list, { items: ["a", { text: 3 }] })).toBe("items[1].text: expected string, received number");
    expect(issuesOf(list, { items: [{ text: "a", items: [1] }] })).toBe("items[0].items[0]: expected string, received number");
  });

  it("names the types that fit when the value has none of them", () => {
    expect(issuesOf(list, { items: [5] })).toBe("items[0]: expected string or object");
  });

  it("keeps a union's own message when the schema gives one", () => {
    const worded = z.object({ items: z.array(z.union([z.string(), z.number()], { error: "a name or a number" })) });
    expect(issuesOf(worded, { items: [true] })).toBe("items[0]: a name or a number");
  });

  it("lists the accepted values of a discriminator", () => {
    const block = z.discriminatedUnion("type", [z.object({ type: z.literal("a") }), z.object({ type: z.literal("b") })]);
    expect(issuesOf(z.object({ blocks: z.array(block) }), { blocks: [{ type: "c" }] })).toBe("blocks[0].type: Invalid discriminator value. Expected 'a' | 'b'");
  });

  it("says a missing field is required, and stops after five issues", () => {
    const many = z.object({ a: z.string(), b: z.string(), c: z.string(), d: z.string(), e: z.string(), f: z.string() });
    expect(issuesOf(many, {})).toBe(
      "a: is required (expected string); b: is required (expected string); c: is required (expected string); " + "d: is required (expected string); e: is required (expected string); (1 more)",
    );
  });
});
