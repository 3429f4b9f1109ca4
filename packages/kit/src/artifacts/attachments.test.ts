import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toolJsonSchema } from "../json-schema.js";
import { formatIssues } from "../validation.js";
import { attachments } from "./attachments.js";

describe("attachments()", () => {
  const input = z.object({
    files: attachments({
      description: "PDFs to merge",
      min: 1,
      max: 3,
      fields: {
        pages: z
          .string()
          .regex(/^\d+(-\d+)?$/, "expected pages like 2-4")
          .optional()
          .describe("Pages to take"),
      },
    }),
  });

  it("advertises artifact_id and the extra fields, as the model writes them", () => {
    expect(toolJsonSchema(input).properties).toEqual({
      files: {
        type: "array",
        description: "PDFs to merge",
        minItems: 1,
        maxItems: 3,
        items: {
          type: "object",
          properties: {
            artifact_id: { type: "string", description: "An artifact_id from an earlier tool result" },
            pages: { type: "string", pattern: "^\\d+(-\\d+)?$", description: "Pages to take" },
          },
          required: ["artifact_id"],
        },
      },
    });
  });

  it("validates the extra fields of what the orchestrator sends, naming the element", () => {
    const rewritten = (pages: unknown) => ({ files: [{ capability_artifact_id: "a1", filename: "a.pdf", pages }] });
    expect(input.parse(rewritten("2-4")).files[0]!.pages).toBe("2-4");
    const parsed = input.safeParse(rewritten("two"));
    expect(parsed.success).toBe(false);
    expect(formatIssues(parsed.error!.issues)).toBe("files[0].pages: expected pages like 2-4");
  });

  it("refuses an element's key no field names, naming what an element takes as the model writes it, and one the orchestrator did not upload", () => {
    const value = { files: [{ capability_artifact_id: "a1", filename: "a.pdf", mime_type: "application/pdf", size_bytes: 3, page: "2" }] };
    const unknown = input.safeParse(value);
    expect(formatIssues(unknown.error!.issues, undefined, { schema: input, value })).toBe('files[0]: unknown key "page" (it takes: artifact_id, pages)');
    const parsed = input.safeParse({ files: [{ artifact_id: "a1" }] });
    expect(formatIssues(parsed.error!.issues)).toBe(
      "files[0].capability_artifact_id: has no capability_artifact_id: the file was not uploaded by the orchestrator; pass an artifact_id from an earlier tool result",
    );
  });
});
