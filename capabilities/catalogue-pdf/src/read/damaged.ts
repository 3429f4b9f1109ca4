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

/**
 * The refusal of a file a PDF library could not read, with what the library said, unless that was a slip
 * of its own code on what it found ("Cannot read properties of undefined (reading 'Pages')"), which
 * tells the user nothing: then that the file's structure is missing.
 */
export function damagedError(input: PdfInput, err: unknown): ToolError {
  return new ToolError(`${input.field} (${input.filename}): the PDF is damaged and can't be read (${librarySaid(err) ?? "its structure is missing or broken"})`, { cause: err });
}

/** What a PDF library's error says of the file, or undefined when it is a slip of the library's own code. */
export function librarySaid(err: unknown): string | undefined {
  return err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError ? undefined : errorMessage(err);
}
