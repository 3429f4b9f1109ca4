import { z } from "zod";
import { advertiseAs } from "../json-schema.js";

export interface AttachmentsOptions {
  /** Tells the model which files fit, e.g. "PDF files to merge, in order". */
  description: string;
  min?: number;
  max?: number;
}

const MISSING_UPLOAD =
  "has no capability_artifact_id: the file was not uploaded by the orchestrator; pass an artifact_id from an earlier tool result";

/**
 * The `attachments` argument of a tool that takes files. The model is shown `[{artifact_id}]`;
 * the tool receives what Selu rewrites each element to: `capability_artifact_id`, `filename`,
 * `mime_type`, `size_bytes` (other keys kept).
 */
export function attachments(options: AttachmentsOptions) {
  const element = z.looseObject({
    capability_artifact_id: z.string({ error: MISSING_UPLOAD }).min(1, MISSING_UPLOAD),
    filename: z.string().optional(),
    mime_type: z.string().optional(),
    size_bytes: z.number().int().nonnegative().optional(),
  });
  let list = z.array(element);
  if (options.min !== undefined) list = list.min(options.min, `expected at least ${options.min} attachment(s)`);
  if (options.max !== undefined) list = list.max(options.max, `expected at most ${options.max} attachments`);
  return advertiseAs(list, {
    type: "array",
    description: options.description,
    ...(options.min !== undefined ? { minItems: options.min } : {}),
    ...(options.max !== undefined ? { maxItems: options.max } : {}),
    items: {
      type: "object",
      properties: { artifact_id: { type: "string", description: "An artifact_id from an earlier tool result" } },
      required: ["artifact_id"],
    },
  });
}
