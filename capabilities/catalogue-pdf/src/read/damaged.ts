import { ToolError } from "@selu-catalogue/kit";
import type { PdfInput } from "./pdf-input.js";

/** Runs a PDF library step; a failure means the file's structure is broken, which the user should hear. */
export function damagedIfThrows<T>(input: PdfInput, step: () => T): T {
  try {
    return step();
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw new ToolError(`${input.field} (${input.filename}): the PDF is damaged and can't be read (${err instanceof Error ? err.message : String(err)})`, { cause: err });
  }
}
