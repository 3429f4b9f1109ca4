import { createHash, randomBytes } from "node:crypto";
import { attachments, formatBytes, ToolError } from "@selu-catalogue/kit";
import { z } from "zod";
import { SMTP_NEEDS } from "../credentials.js";
import { readAccount } from "../account.js";
import { readSender, readSmtpSettings } from "../config.js";
import { address, addressList, headerText, mailbox, uid } from "../fields.js";
import { MAIL_LIMITS } from "../limits.js";
import { outgoingAttachments } from "../smtp/attachments.js";
import { composeBody } from "../smtp/body.js";
import { deliver, type SentRecord } from "../smtp/deliver.js";
import type { AccessTokens } from "../oauth/access-tokens.js";
import type { SentMessages } from "../smtp/sent-messages.js";
import type { MailTool } from "./shared.js";

const MAX_TEXT_CHARS = 500_000;
const MAX_HTML_CHARS = 2_000_000;

const input = z.object({
  to: addressList('Recipients, e.g. ["bob@example.com", "Carol <carol@example.com>"]; when replying, default: the original\'s Reply-To or From', 1).optional(),
  cc: addressList("Copy recipients").optional(),
  bcc: addressList("Blind copy recipients (not shown to the others)").optional(),
  subject: headerText("Subject line; may be left out when replying (then Re: <original subject>)").optional(),
  text: z.string().max(MAX_TEXT_CHARS).optional().describe("Plain-text body"),
  html: z.string().max(MAX_HTML_CHARS).optional().describe("HTML body (a text part is made from it when text is not given)"),
  markdown: z.string().max(MAX_TEXT_CHARS).optional().describe("Body as Markdown, sent as HTML with the Markdown as the text part; instead of text/html"),
  reply_to: address.optional().describe("Reply-To address, when replies should go elsewhere than the sender"),
  reply_to_message: z
    .object({ mailbox, uid })
    .strict()
    .optional()
    .describe("Send as a reply to this received message (mailbox + uid from list/search): sets In-Reply-To and References and marks it answered"),
  attachments: attachments({ description: "Files to attach (artifacts from earlier tool results), any type", max: MAIL_LIMITS.maxAttachments }).optional(),
  save_to_sent: z.boolean().default(false).describe("Also store a copy in the Sent mailbox over IMAP; for providers that don't do it themselves (Gmail and Outlook do)"),
  resend: z.boolean().default(false).describe("Send even if an identical message was sent in this session in the last 15 minutes"),
});

/** send_email: checks and prepares the message, then delivers it at most once per call (policy ask). */
export const sendEmail = (tool: MailTool, tokens: AccessTokens, sent: SentMessages<SentRecord>) =>
  tool({
    description:
      // The first sentence is also the English approval message Selu shows when the model gives none.
      "Sends an email from the user's account. Over SMTP: to/cc/bcc, subject, a text, HTML or Markdown " +
      "body, optional Reply-To, files attached from artifacts, optionally as a threaded reply to a " +
      "received message (mailbox + uid). Returns the Message-ID and the accepted and rejected recipients. " +
      "A repeated identical call within 15 minutes is not sent again (duplicate: true).",
    input,
    // The three bodies at their longest, three UTF-8 bytes a character, and room for the rest.
    args: { maxBytes: (MAX_HTML_CHARS + 2 * MAX_TEXT_CHARS) * 3 + 256 * 1024 },
    policy: "ask",
    needs: [...SMTP_NEEDS],
    async run(args, ctx) {
      const sender = readSender(ctx.credentials);
      const smtp = readSmtpSettings(ctx.credentials);
      const access = { account: readAccount(ctx.credentials), tokens };
      if (!args.to && !args.reply_to_message) throw new ToolError("to: required unless replying (reply_to_message)");
      if ((args.to?.length ?? 0) + (args.cc?.length ?? 0) + (args.bcc?.length ?? 0) > MAIL_LIMITS.maxRecipients) {
        throw new ToolError(`to, cc, bcc: at most ${MAIL_LIMITS.maxRecipients} recipients in all`);
      }
      if (args.subject === undefined && !args.reply_to_message) throw new ToolError("subject: required unless replying (reply_to_message)");
      const body = await composeBody(args);
      const files = await outgoingAttachments(args.attachments ?? [], ctx.artifacts);
      const key = createHash("sha256")
        .update(
          JSON.stringify([
            ctx.sessionId,
            ctx.threadId,
            args.to,
            args.cc,
            args.bcc,
            args.subject,
            args.text,
            args.html,
            args.markdown,
            args.reply_to,
            args.reply_to_message,
            files.map((f) => [f.filename, f.contentType, f.sha256]),
          ]),
        )
        .update(args.resend ? randomBytes(16) : Buffer.alloc(0))
        .digest("hex");

      const { result, duplicate, sentAt } = await sent.once(key, () =>
        // One send at a time: a message with 18 MiB of attachments takes ~50 MiB while it is encoded and written.
        ctx.slots.run(() => deliver(ctx, { args, body, files, sender, smtp, access, messageId: `<${key.slice(0, 32)}@${sender.address.split("@")[1]}>` })),
      );

      return {
        message_id: result.messageId,
        accepted: result.accepted,
        rejected: result.rejected,
        from: sender.name ? `${sender.name} <${sender.address}>` : sender.address,
        attachments: files.map((f) => ({ filename: f.filename, mime_type: f.contentType, size: formatBytes(f.size) })),
        ...(args.save_to_sent ? { saved_to: result.savedTo } : {}),
        ...(result.saveProblem ? { save_problem: `sent, but not saved to Sent: ${result.saveProblem}` } : {}),
        duplicate,
        ...(duplicate ? { note: `an identical message was already sent at ${new Date(sentAt).toISOString()}; it was not sent again (set resend: true to send it once more)` } : {}),
      };
    },
  });
