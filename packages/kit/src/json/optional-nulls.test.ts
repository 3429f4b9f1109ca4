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
