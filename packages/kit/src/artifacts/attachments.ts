import { z } from "zod";
import { advertiseAs, toolJsonSchema } from "../json-schema.js";
import { takesKeys } from "../validation.js";

export interface AttachmentsOptions<F extends z.ZodRawShape = Record<never, never>> {
  /** Tells the model which files fit, e.g. "PDF files to merge, in order". */
  description: string;
  min?: number;
  max?: number;
  /**
   * Keys each element may carry besides `artifact_id`, e.g. `{ pages: z.string().optional() }` for the
   * pages to take from each file. Selu keeps them through its rewrite; they are advertised, validated
   * and typed like any argument.
   */
  fields?: F;
}

const MISSING_UPLOAD = "has no capability_artifact_id: the file was not uploaded by the orchestrator; pass an artifact_id from an earlier tool result";

const ARTIFACT_ID_PROPERTY = { type: "string", description: "An artifact_id from an earlier tool result" };

/**
 * The `attachments` argument of a tool that takes files. The model is shown `[{artifact_id, ...fields}]`;
 * the tool receives what Selu rewrites each element to: `capability_artifact_id`, `filename`,
 * `mime_type`, `size_bytes`, and the element's other keys. A key neither Selu sets nor `fields` names is
 * refused, naming what an element takes as the model writes it (`artifact_id` and the fields): ignored,
 * a model's `pages` on a file of a tool that reads `pages` once for all would take every page unsaid.
 */
export function attachments<F extends z.ZodRawShape = Record<never, never>>(options: AttachmentsOptions<F>) {
  const fields = (options.fields ?? {}) as F;
  const element = z.strictObject({
    capability_artifact_id: z.string({ error: MISSING_UPLOAD }).min(1, MISSING_UPLOAD),
    // Left only on an element Selu did not upload, which the missing capability_artifact_id reports.
    artifact_id: z.unknown().optional(),
    filename: z.string().optional(),
    mime_type: z.string().optional(),
    size_bytes: z.number().int().nonnegative().optional(),
    ...fields,
  });
  takesKeys(element, ["artifact_id", ...Object.keys(fields)]);
  let list = z.array(element);
  if (options.min !== undefined) list = list.min(options.min, `expected at least ${options.min} attachment(s)`);
  if (options.max !== undefined) list = list.max(options.max, `expected at most ${options.max} attachments`);
  const extra = advertisedFields(fields);
  return advertiseAs(list, {
    type: "array",
    description: options.description,
    ...(options.min !== undefined ? { minItems: options.min } : {}),
    ...(options.max !== undefined ? { maxItems: options.max } : {}),
    items: {
      type: "object",
      properties: { artifact_id: ARTIFACT_ID_PROPERTY, ...extra.properties },
      required: ["artifact_id", ...extra.required],
    },
  });
}

/** The JSON Schema of the extra fields, converted as a tool's input is (the same options and overrides). */
function advertisedFields(fields: z.ZodRawShape): { properties: Record<string, unknown>; required: string[] } {
  if (Object.keys(fields).length === 0) return { properties: {}, required: [] };
  const json = toolJsonSchema(z.object(fields)) as { properties?: Record<string, unknown>; required?: string[] };
  return { properties: json.properties ?? {}, required: json.required ?? [] };
}

/**
 * The uploaded ids in a call's validated arguments: only the top-level `attachments` array is uploaded by
 * Selu (contract section 4). `undefined` when there are none, so a call without files allocates nothing.
 */
export function attachmentIds(args: unknown): string[] | undefined {
  const list = typeof args === "object" && args !== null ? (args as { attachments?: unknown }).attachments : undefined;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const ids: string[] = [];
  for (const element of list) {
    const id = typeof element === "object" && element !== null ? (element as { capability_artifact_id?: unknown }).capability_artifact_id : undefined;
    if (typeof id === "string") ids.push(id);
  }
  return ids;
}
