import type { MessageStructureObject } from "imapflow";

/** An attachment as the tools report it; `attachment_id` is the IMAP body part number. */
export interface AttachmentInfo {
  attachment_id: string;
  filename: string;
  mime_type: string;
  /** Decoded size, estimated from the encoded size the server reports. */
  size_bytes: number;
  /** Shown inside the message (an embedded image) rather than attached. */
  inline: boolean;
}

export interface MessageParts {
  text: MessageStructureObject | undefined;
  html: MessageStructureObject | undefined;
  attachments: AttachmentInfo[];
}

/**
 * Splits a BODYSTRUCTURE into the readable body (first text/plain and text/html that are not
 * attachments) and everything else as attachments. A forwarded message (message/rfc822) is one
 * attachment, not opened.
 */
export function messageParts(root: MessageStructureObject | undefined): MessageParts {
  const parts: MessageParts = { text: undefined, html: undefined, attachments: [] };
  if (root) walk(root, parts);
  return parts;
}

function walk(node: MessageStructureObject, parts: MessageParts): void {
  const type = node.type.toLowerCase();
  if (node.childNodes && type.startsWith("multipart/")) {
    for (const child of node.childNodes) walk(child, parts);
    return;
  }
  const name = fileName(node);
  const attached = node.disposition?.toLowerCase() === "attachment";
  if (!attached && !name && type === "text/plain" && !parts.text) return void (parts.text = node);
  if (!attached && !name && type === "text/html" && !parts.html) return void (parts.html = node);
  if (!attached && !name && (type === "text/plain" || type === "text/html")) return; // further alternatives
  const partId = node.part ?? "1";
  parts.attachments.push({
    attachment_id: partId,
    filename: safeFileName(name, partId, type),
    mime_type: type,
    size_bytes: decodedSize(node),
    inline: !attached && (node.disposition?.toLowerCase() === "inline" || Boolean(node.id)),
  });
}

/** Finds an attachment by id among a message's parts. */
export function findAttachment(parts: MessageParts, attachmentId: string): AttachmentInfo | undefined {
  return parts.attachments.find((a) => a.attachment_id === attachmentId);
}

function fileName(node: MessageStructureObject): string | undefined {
  return node.dispositionParameters?.filename ?? node.parameters?.name ?? undefined;
}

const EXTENSIONS: Record<string, string> = { "message/rfc822": "eml", "text/calendar": "ics", "application/pdf": "pdf" };

/**
 * Characters a file name must not carry: controls (C0, DEL, C1), line and paragraph separators, and
 * invisible format characters, bidi overrides among them ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf").
 */
export const UNSAFE_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

/** A file name safe to hand on: no directories, no control or invisible characters, bounded length. */
export function safeFileName(name: string | undefined, partId: string, type: string): string {
  const base = (name ?? "").split(/[\\/]/).pop()!.replace(UNSAFE_NAME_CHARS, "").trim().slice(-150);
  if (base && base !== "." && base !== "..") return base;
  return `attachment-${partId}.${EXTENSIONS[type] ?? "bin"}`;
}

function decodedSize(node: MessageStructureObject): number {
  const size = node.size ?? 0;
  // base64: 3 bytes per 4 characters, lines of 76 characters plus CRLF.
  return node.encoding?.toLowerCase() === "base64" ? Math.floor(((size * 76) / 78) * 0.75) : size;
}
