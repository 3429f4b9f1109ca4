import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { ToolError, formatBytes, type ArtifactAccess, type AttachmentArg } from "@selu-catalogue/kit";
import { MAIL_LIMITS } from "../limits.js";
import { UNSAFE_NAME_CHARS } from "../imap/structure.js";

/** An input artifact ready to go into the message. */
export interface OutgoingAttachment {
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  /** The bytes as a stream over the stored chunks: never copied into one buffer (memory bound). */
  open(): Readable;
}

const MIME = /^[A-Za-z0-9][\w.+-]*\/[A-Za-z0-9][\w.+-]*(?:\s*;[^\r\n\0]*)?$/;

/** Resolves `attachments[]` to their stored bytes, checking each file's and the sum's size. */
export async function outgoingAttachments(list: readonly AttachmentArg[], artifacts: ArtifactAccess): Promise<OutgoingAttachment[]> {
  let total = 0;
  const files = list.map((attachment, i) => {
    const field = `attachments[${i}]`;
    const file = artifacts.read(attachment, field);
    if (file.size > MAIL_LIMITS.maxAttachmentBytes) {
      throw new ToolError(`${field}: ${file.filename} is ${formatBytes(file.size)}, over the ${formatBytes(MAIL_LIMITS.maxAttachmentBytes)} limit per attachment`);
    }
    total += file.size;
    if (total > MAIL_LIMITS.maxTotalAttachmentBytes) {
      throw new ToolError(
        `attachments: together they pass the ${formatBytes(MAIL_LIMITS.maxTotalAttachmentBytes)} limit per message (mail providers refuse larger messages); send them in several messages`,
      );
    }
    if (!MIME.test(file.mimeType)) throw new ToolError(`${field}: ${JSON.stringify(file.mimeType.slice(0, 80))} is not a MIME type like application/pdf`);
    return { file, filename: file.filename.replace(UNSAFE_NAME_CHARS, "").split(/[\\/]/).pop() || `attachment-${i + 1}.bin` };
  });
  const out: OutgoingAttachment[] = [];
  for (const { file, filename } of files) {
    const hash = createHash("sha256");
    for await (const chunk of file.stream()) hash.update(chunk as Buffer);
    out.push({ filename, contentType: file.mimeType, size: file.size, sha256: hash.digest("hex"), open: () => file.stream() });
  }
  return out;
}
