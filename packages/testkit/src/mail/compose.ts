import MailComposer from "nodemailer/lib/mail-composer";

/** A message described by its parts, built into RFC 822 by nodemailer's MailComposer. */
export interface MessageSpec {
  from: string;
  to: string | readonly string[];
  cc?: string | readonly string[];
  subject: string;
  text?: string;
  html?: string;
  /** Default: now. Also the message's INTERNALDATE when seeded into the IMAP double. */
  date?: Date;
  /** Default: a random one at example.test. */
  messageId?: string;
  inReplyTo?: string;
  references?: string | readonly string[];
  attachments?: readonly { filename: string; content: Buffer | string; contentType?: string }[];
  /** Extra headers, name to value. */
  headers?: Record<string, string>;
}

/** Builds a complete RFC 822 message (MIME multipart when there are attachments). */
export async function composeMessage(spec: MessageSpec): Promise<Buffer> {
  const composer = new MailComposer({
    from: spec.from,
    to: list(spec.to),
    ...(spec.cc ? { cc: list(spec.cc) } : {}),
    subject: spec.subject,
    ...(spec.text !== undefined ? { text: spec.text } : {}),
    ...(spec.html !== undefined ? { html: spec.html } : {}),
    date: spec.date ?? new Date(),
    ...(spec.messageId ? { messageId: spec.messageId } : {}),
    ...(spec.inReplyTo ? { inReplyTo: spec.inReplyTo } : {}),
    ...(spec.references ? { references: list(spec.references) } : {}),
    ...(spec.headers ? { headers: spec.headers } : {}),
    attachments: (spec.attachments ?? []).map((a) => ({
      filename: a.filename,
      content: a.content,
      ...(a.contentType ? { contentType: a.contentType } : {}),
    })),
  });
  return composer.compile().build();
}

function list(value: string | readonly string[]): string[] {
  return typeof value === "string" ? [value] : [...value];
}
