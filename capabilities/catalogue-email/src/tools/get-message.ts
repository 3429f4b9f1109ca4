import { shortenString } from "@selu-catalogue/kit";
import { z } from "zod";
import type { AccessTokens } from "../oauth/access-tokens.js";
import { IMAP_NEEDS } from "../credentials.js";
import { formatAddress } from "../address.js";
import { mailbox, uid } from "../fields.js";
import { htmlToText } from "../html-text.js";
import { fetchByUid, readTextPart } from "../imap/message.js";
import { messageParts } from "../imap/structure.js";
import { isoDate } from "../imap/summary.js";
import { capList, capText } from "../result-size.js";
import { MAIL_LIMITS } from "../limits.js";
import { imapSession, type MailTool } from "./shared.js";

const MAX_LISTED_ATTACHMENTS = 100;

/** get_message: headers, body as text and the attachment list of one message (read-only). */
export const getMessage = (tool: MailTool, tokens: AccessTokens) =>
  tool({
    description:
      "Reads one message, identified by mailbox + uid: headers, the text body (an HTML-only body is " +
      "turned into text) and its attachments, each with an attachment_id for get_attachment, file " +
      "name, MIME type and approximate size. Does not mark the message as read.",
    input: z.object({
      mailbox: mailbox.default("INBOX"),
      uid,
      max_body_chars: z.number().int().min(100).max(40_000).default(20_000).describe("Longest body text returned (default 20000); longer bodies are cut"),
    }),
    policy: "allow",
    // 40,000 characters of Cyrillic or CJK are 80-120 KB: the body is cut to fit Selu's 49,152 bytes.
    fit: shortenString("body", { flag: "body_truncated" }),
    needs: [...IMAP_NEEDS],
    async run(args, ctx) {
      return imapSession(ctx, tokens, async (client) => {
        const lock = await client.getMailboxLock(args.mailbox, { readOnly: true });
        try {
          const message = await fetchByUid(client, args.mailbox, args.uid, { envelope: true, flags: true, bodyStructure: true, internalDate: true, size: true, headers: ["references"] });
          const parts = messageParts(message.bodyStructure);
          let body = "";
          let truncated = false;
          let format: "text" | "html" | "none" = "none";
          if (parts.text) {
            ({ text: body, truncated } = await readTextPart(client, args.uid, parts.text.part ?? "1", MAIL_LIMITS.maxBodyPartBytes));
            format = "text";
          } else if (parts.html) {
            const html = await readTextPart(client, args.uid, parts.html.part ?? "1", MAIL_LIMITS.maxBodyPartBytes);
            body = await htmlToText(html.text);
            truncated = html.truncated;
            format = "html";
          }
          if (body.length > args.max_body_chars) {
            body = body.slice(0, args.max_body_chars);
            truncated = true;
          }
          const envelope = message.envelope ?? {};
          const flags = message.flags ?? new Set<string>();
          return {
            mailbox: lock.path,
            uid: message.uid,
            message_id: envelope.messageId ?? null,
            date: isoDate(envelope.date ?? message.internalDate) ?? null,
            from: capText((envelope.from ?? []).map(formatAddress).join(", "), 500),
            to: capList((envelope.to ?? []).map(formatAddress), 50),
            cc: capList((envelope.cc ?? []).map(formatAddress), 50),
            reply_to: capList((envelope.replyTo ?? []).map(formatAddress), 5),
            subject: envelope.subject ?? "",
            seen: flags.has("\\Seen"),
            flagged: flags.has("\\Flagged"),
            answered: flags.has("\\Answered"),
            body_format: format,
            body,
            body_truncated: truncated,
            attachments: parts.attachments.slice(0, MAX_LISTED_ATTACHMENTS),
            ...(parts.attachments.length > MAX_LISTED_ATTACHMENTS ? { attachments_not_listed: parts.attachments.length - MAX_LISTED_ATTACHMENTS } : {}),
          };
        } finally {
          lock.release();
        }
      });
    },
  });
