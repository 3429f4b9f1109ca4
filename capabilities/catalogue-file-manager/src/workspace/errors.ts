import { ToolError } from "@selu-catalogue/kit";

/** A path the workspace refuses (outside the root, a link, a device, a bad name): the caller can fix it. */
export class PathError extends ToolError {}

/** A quota (file size, files or bytes per call) reached while writing; the partial write is discarded. */
export class QuotaError extends ToolError {}

/** The errno of a Node system error, if it is one. */
export function errnoOf(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err && typeof err.code === "string" ? err.code : undefined;
}
