import { errorMessage, ToolError } from "@selu-catalogue/kit";
import type { PdfInput } from "./pdf-input.js";

/** Runs a PDF library step; a failure means the file's structure is broken, which the user should hear. */
export function damagedIfThrows<T>(input: PdfInput, step: () => T): T {
  try {
    return step();
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw damagedError(input, err);
  }
}

/** The refusal of a file a PDF library could not read, with what the library said. */
export function damagedError(input: PdfInput, err: unknown): ToolError {
  return new ToolError(`${input.field} (${input.filename}): the PDF is damaged and can't be read (${errorMessage(err)})`, { cause: err });
}
