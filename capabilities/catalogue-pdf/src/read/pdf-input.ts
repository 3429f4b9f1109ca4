import { ToolError, type AttachmentArg, type ToolContext } from "@selu-catalogue/kit";

/** An attached file that starts like a PDF. */
export interface PdfInput {
  field: string;
  filename: string;
  bytes: Buffer;
}

/**
 * Reads an attachment and checks it is a PDF by its content (`%PDF-` in the first 1 KiB, where the
 * specification lets readers find it), whatever its name or declared type says.
 */
export function readPdfAttachment(attachment: AttachmentArg, index: number, ctx: Pick<ToolContext, "artifacts">): PdfInput {
  const field = `attachments[${index}]`;
  const file = ctx.artifacts.read(attachment, field);
  const bytes = file.bytes();
  const head = bytes.subarray(0, 1024).toString("latin1");
  if (!head.includes("%PDF-")) {
    throw new ToolError(`${field} (${file.filename}): is not a PDF (its content does not start with %PDF-); attach a PDF file`);
  }
  return { field, filename: file.filename, bytes };
}

/**
 * The error for an encrypted PDF we can't open: one that needs a password, or is encrypted in a way the
 * standard security handler doesn't define (one that opens without a password, an owner password that
 * only restricts copying or printing, is decrypted: read/decrypt.ts).
 */
export function encryptedError(input: PdfInput, action: string, why?: { needsPassword: boolean; message: string }): ToolError {
  const reason = !why || why.needsPassword ? "the PDF needs a password to open" : `the PDF is encrypted and ${why.message}`;
  return new ToolError(`${input.field} (${input.filename}): ${reason}, so it can't be ${action}; attach an unencrypted copy, e.g. printed to a new PDF`);
}
