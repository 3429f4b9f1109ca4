import { ToolError, type ToolContext } from "@selu-catalogue/kit";
import type { SendMailOptions } from "nodemailer";
import { parseAddress } from "../address.js";
import type { MailAccess } from "../account.js";
import { readImapSettings, type SmtpSettings } from "../config.js";
import { saveToSent } from "../imap/save-sent.js";
import { withImap } from "../imap/session.js";
import type { OutgoingAttachment } from "./attachments.js";
import { rawMessage } from "./raw-message.js";
import { markAnswered, replyContext, replySubject, type ReplyContext } from "./threading.js";
import { sendViaSmtp, type SmtpOutcome } from "./transport.js";

/** What send_email has checked and prepared: nothing here is validated again. */
export interface Delivery {
  args: {
    /** Absent only for a reply: then the original's Reply-To, else its From. */
    to?: string[] | undefined;
    cc?: string[] | undefined;
    bcc?: string[] | undefined;
    reply_to?: string | undefined;
    subject?: string | undefined;
    reply_to_message?: { mailbox: string; uid: number } | undefined;
    save_to_sent: boolean;
  };
  body: { text: string; html?: string };
  files: OutgoingAttachment[];
  sender: { address: string; name: string | undefined };
  smtp: SmtpSettings;
  access: MailAccess;
  /** Derived from the call, so a retry that slips past the send memory (a restart) keeps the same id. */
  messageId: string;
}

/** The outcome of one delivery, remembered for duplicate calls. */
export interface SentRecord extends SmtpOutcome {
  messageId: string;
  /** The mailbox a copy went to (save_to_sent), else null. */
  savedTo: string | null;
  saveProblem: string | undefined;
}

/**
 * Sends the message: reads the answered message's threading headers first (a reply), sends over SMTP,
 * then, with the mail already out, stores the Sent copy and flags the original \Answered. Failures
 * of those two afterwards are reported or logged, never turned into a failed send.
 */
export async function deliver(ctx: ToolContext, delivery: Delivery): Promise<SentRecord> {
  const { args, body, files, sender, messageId } = delivery;
  const imap = () => readImapSettings(ctx.credentials);
  const original = args.reply_to_message;
  let reply: ReplyContext | undefined;
  if (original) reply = await withImap(ctx, imap(), delivery.access, (client) => replyContext(client, original.mailbox, original.uid));
  const date = new Date();
  // A function, because attachment streams are read once: the Sent copy needs fresh ones.
  const mail = (): SendMailOptions => ({
    from: { name: sender.name ?? "", address: sender.address },
    to: args.to ? args.to.map(toAddress) : reply!.replyTo,
    ...(args.cc ? { cc: args.cc.map(toAddress) } : {}),
    ...(args.bcc ? { bcc: args.bcc.map(toAddress) } : {}),
    ...(args.reply_to ? { replyTo: toAddress(args.reply_to) } : {}),
    subject: args.subject ?? replySubject(reply?.subject ?? ""),
    text: body.text,
    ...(body.html !== undefined ? { html: body.html } : {}),
    messageId,
    date,
    ...(reply ? { inReplyTo: reply.messageId, references: reply.references } : {}),
    attachments: files.map((f) => ({ filename: f.filename, content: f.open(), contentType: f.contentType, contentDisposition: "attachment" as const })),
  });
  const outcome = await sendViaSmtp(ctx, delivery.smtp, delivery.access, mail);
  let savedTo: string | null = null;
  let saveProblem: string | undefined;
  if (args.save_to_sent) {
    try {
      const raw = await rawMessage(mail());
      savedTo = await withImap(ctx, imap(), delivery.access, (client) => saveToSent(client, raw, date));
    } catch (err) {
      saveProblem = err instanceof ToolError ? err.message : "the copy could not be stored";
    }
  }
  if (original) {
    await withImap(ctx, imap(), delivery.access, (client) => markAnswered(client, original.mailbox, original.uid)).catch((err: unknown) =>
      ctx.log.warn("could not mark the original message answered", { error: err instanceof Error ? err.name : "unknown" }),
    );
  }
  return { ...outcome, messageId, savedTo, saveProblem };
}

function toAddress(value: string): { name: string; address: string } {
  const parsed = parseAddress(value)!; // validated by the schema
  return { name: parsed.name ?? "", address: parsed.address };
}
