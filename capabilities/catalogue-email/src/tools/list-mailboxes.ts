import { z } from "zod";
import type { AccessTokens } from "../oauth/access-tokens.js";
import { IMAP_NEEDS } from "../credentials.js";
import { imapSession, type MailTool } from "./shared.js";

/** list_mailboxes: every selectable mailbox with counts and special use (read-only). */
export const listMailboxes = (tool: MailTool, tokens: AccessTokens) =>
  tool({
    description: "Lists the account's mailboxes (folders) with their message and unread counts and special use " + "(\\Sent, \\Trash, \\Archive, \\Junk, \\Drafts). Use the path with the other tools.",
    input: z.object({}),
    policy: "allow",
    needs: [...IMAP_NEEDS],
    async run(_args, ctx) {
      return imapSession(ctx, tokens, async (client) => {
        const list = await client.list({ statusQuery: { messages: true, unseen: true } });
        const mailboxes = list
          .filter((box) => !box.flags.has("\\Noselect") && !box.flags.has("\\NonExistent"))
          .map((box) => ({
            path: box.path,
            ...(box.specialUse ? { special_use: box.specialUse } : {}),
            messages: box.status?.messages ?? null,
            unseen: box.status?.unseen ?? null,
          }));
        return { mailboxes };
      });
    },
  });
