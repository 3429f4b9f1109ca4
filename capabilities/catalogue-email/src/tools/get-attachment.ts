import { ToolError, formatBytes } from "@selu-catalogue/kit";
import { z } from "zod";
import type { AccessTokens } from "../oauth/access-tokens.js";
import { IMAP_NEEDS } from "../credentials.js";
import { mailbox, uid } from "../fields.js";
import { fetchByUid } from "../imap/message.js";
import { findAttachment, messageParts } from "../imap/structure.js";
import { MAIL_LIMITS } from "../limits.js";
import { imapSession, type MailTool } from "./shared.js";

/** get_attachment: one received attachment, decoded byte for byte, as an output artifact. */
export const getAttachment = (tool: MailTool, tokens: AccessTokens) =>
  tool({
    description:
      "Fetches one attachment of a received message (mailbox + uid + attachment_id from get_message) " +
      "and returns it as an artifact, so it can be passed to other tools (read a PDF, attach it to a " +
      `new mail). Up to ${formatBytes(MAIL_LIMITS.maxAttachmentBytes)}.`,
    input: z.object({
      mailbox: mailbox.default("INBOX"),
      uid,
      attachment_id: z
        .string()
        .min(1)
        .max(64)
        .regex(/^\d+(?:\.\d+)*$/, 'expected an attachment_id from get_message, like "2" or "1.2"')
        .describe("The attachment's id from get_message"),
    }),
    policy: "allow",
    needs: [...IMAP_NEEDS],
    async run(args, ctx) {
      return imapSession(ctx, tokens, async (client) => {
        const lock = await client.getMailboxLock(args.mailbox, { readOnly: true });
        try {
          const message = await fetchByUid(client, args.mailbox, args.uid, { bodyStructure: true });
          const parts = messageParts(message.bodyStructure);
          const found = findAttachment(parts, args.attachment_id);
          if (!found) {
            const known = parts.attachments.map((a) => `${a.attachment_id} (${a.filename})`).join(", ");
            throw new ToolError(
              `attachment_id: message ${args.uid} in ${JSON.stringify(args.mailbox)} has no attachment ${JSON.stringify(args.attachment_id)}; ` +
                (known ? `its attachments are: ${known}` : "it has no attachments"),
            );
          }
          if (found.size_bytes > MAIL_LIMITS.maxAttachmentBytes) {
            throw new ToolError(`attachment_id: ${found.filename} is about ${formatBytes(found.size_bytes)}, over the ${formatBytes(MAIL_LIMITS.maxAttachmentBytes)} limit of this capability`);
          }
          // decodeText false: the bytes as sent (a CSV in Latin-1 stays Latin-1).
          const { content } = await client.download(String(args.uid), found.attachment_id, { uid: true, decodeText: false, maxBytes: MAIL_LIMITS.maxAttachmentBytes + 1 });
          if (!content) throw new ToolError(`attachment_id: the server returned no content for attachment ${args.attachment_id}`);
          let artifact;
          try {
            artifact = await ctx.artifacts.put(content as AsyncIterable<Uint8Array>, { filename: found.filename, mimeType: found.mime_type });
          } finally {
            content.destroy(); // a refused (too large) download stops here, not at the end of the fetch
          }
          return { artifact, mailbox: lock.path, uid: args.uid, attachment_id: found.attachment_id };
        } finally {
          lock.release();
        }
      });
    },
  });
