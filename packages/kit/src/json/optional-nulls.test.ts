import { describe, expect, it } from "vitest";
import { z } from "zod";
import { dropOptionalNulls } from "./optional-nulls.js";

const schema = z
  .object({
    to: z.array(z.string()),
    subject: z.string().optional(),
    resend: z.boolean().default(false),
    note: z.string().nullable().optional(),
    reply: z.object({ uid: z.number(), mailbox: z.string().optional() }).strict().optional(),
    sections: z.array(z.object({ heading: z.string(), level: z.number().optional() }).strict()),
  })
  .strict();

const cleaned = (value: Record<string, unknown>) => (dropOptionalNulls(schema, value), value);

describe("dropOptionalNulls", () => {
  it("reads null of an optional or defaulted field as absent, as a model sends it through Selu", () => {
    expect(cleaned({ to: ["a"], subject: null, resend: null, sections: [] })).toEqual({ to: ["a"], sections: [] });
    expect(schema.safeParse(cleaned({ to: ["a"], subject: null, resend: null, sections: [] })).data).toEqual({ to: ["a"], resend: false, sections: [] });
  });

  it("does the same inside optional objects and arrays of objects", () => {
    expect(cleaned({ to: [], reply: { uid: 3, mailbox: null }, sections: [{ heading: "h", level: null }] })).toEqual({
      to: [],
      reply: { uid: 3 },
      sections: [{ heading: "h" }],
    });
  });

  it("keeps null where the schema accepts it, and for required fields, so validation names them", () => {
    expect(cleaned({ to: null, note: null, sections: [{ heading: null }] })).toEqual({ to: null, note: null, sections: [{ heading: null }] });
    const result = schema.safeParse(cleaned({ to: null, sections: [] }));
    expect(result.error?.issues[0]).toMatchObject({ path: ["to"], code: "invalid_type" });
  });
});

describe("dropOptionalNulls under unions", () => {
  const item = z.union([z.string(), z.object({ text: z.string(), items: z.array(z.string()).optional() }).strict()]);
  const block = z.discriminatedUnion("type", [
    z.object({ type: z.literal("image"), caption: z.string().optional(), width: z.number().optional() }).strict(),
    z.object({ type: z.literal("quote"), text: z.string(), caption: z.string() }).strict(),
    z.object({ type: z.literal("list"), ordered: z.boolean().optional(), items: z.array(item) }).strict(),
  ]);
  const doc = z.object({ content: z.union([z.array(z.union([z.string(), block])), z.string()]) }).strict();
  const cleanedDoc = (value: Record<string, unknown>) => (dropOptionalNulls(doc, value), value);

  it("reads null of an optional field inside a union's branches as absent, at any depth", () => {
    const value = cleanedDoc({
      content: ["text", { type: "image", caption: null, width: null }, { type: "list", ordered: null, items: ["a", { text: "b", items: null }] }],
    });
    expect(value).toEqual({ content: ["text", { type: "image" }, { type: "list", items: ["a", { text: "b" }] }] });
    expect(doc.safeParse(value).success).toBe(true);
  });

  it("goes by the discriminator: a field required in the branch the value names keeps its null", () => {
    expect(cleanedDoc({ content: [{ type: "quote", text: "q", caption: null }] })).toEqual({ content: [{ type: "quote", text: "q", caption: null }] });
  });

  it("without a discriminator, keeps a null that any branch the value may be requires", () => {
    const either = z.union([z.object({ a: z.string().optional() }), z.object({ a: z.string(), b: z.number() })]);
    const value = { a: null };
    dropOptionalNulls(either, value);
    expect(value).toEqual({ a: null });
  });

  it("reads null of a key no branch has as absent, unless a branch takes keys of its own", () => {
    const value = cleanedDoc({ content: [{ type: "list", items: ["a"], caption: null, title: "kept for validation" }] });
    expect(value).toEqual({ content: [{ type: "list", items: ["a"], title: "kept for validation" }] });
    const loose = z.object({ a: z.string().optional() }).catchall(z.unknown());
    const kept = { a: null, other: null };
    dropOptionalNulls(loose, kept);
    expect(kept).toEqual({ other: null });
  });

  it("leaves a value no branch describes alone", () => {
    const value = { content: "one string" };
    expect(cleanedDoc(value)).toEqual({ content: "one string" });
    expect(cleanedDoc({ content: [{ type: "unknown", caption: null }] })).toEqual({ content: [{ type: "unknown", caption: null }] });
  });
});
