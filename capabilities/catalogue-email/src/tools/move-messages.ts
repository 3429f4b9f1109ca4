import { ToolError } from "@selu-catalogue/kit";
import { z } from "zod";
import type { AccessTokens } from "../oauth/access-tokens.js";
import { IMAP_NEEDS } from "../credentials.js";
import { mailbox, uidList } from "../fields.js";
import { searchUids } from "../imap/search-uids.js";
import { imapSession, type MailTool } from "./shared.js";

/** move_messages: IMAP MOVE to another mailbox, reporting the new uids (policy ask). */
export const moveMessages = (tool: MailTool, tokens: AccessTokens) =>
  tool({
    description:
      "Moves messages (mailbox + uids) to another mailbox, e.g. Archive or Trash (list_mailboxes " +
      "shows the special-use ones). Moved messages get new uids in the destination; the result maps them.",
    input: z.object({
      mailbox: mailbox.default("INBOX"),
      uids: uidList,
      destination: mailbox.describe("Mailbox to move them to, as list_mailboxes shows it"),
    }),
    policy: "ask",
    needs: [...IMAP_NEEDS],
    async run(args, ctx) {
      return imapSession(ctx, tokens, async (client) => {
        const target = (await client.list()).find((box) => box.path === args.destination || (box.path.toLowerCase() === args.destination.toLowerCase() && args.destination.toUpperCase() === "INBOX"));
        if (!target || target.flags.has("\\Noselect")) {
          throw new ToolError(`destination: no mailbox named ${JSON.stringify(args.destination)}; list_mailboxes shows the names`);
        }
        const lock = await client.getMailboxLock(args.mailbox);
        try {
          if (lock.path === target.path) throw new ToolError("destination: is the same mailbox the messages are in");
          const present = (await searchUids(client, { uid: args.uids.join(",") }, lock.path)).sort((a, b) => a - b);
          const missing = args.uids.filter((u) => !present.includes(u));
          if (present.length === 0) {
            throw new ToolError(`uids: none of them is in ${JSON.stringify(args.mailbox)} (moved or deleted?); list_messages gives current uids`);
          }
          const moved = await client.messageMove(present.join(","), target.path, { uid: true });
          if (!moved) throw new ToolError(`the server did not move the messages to ${JSON.stringify(target.path)}`);
          return {
            mailbox: lock.path,
            destination: target.path,
            moved: present.map((uid) => ({ uid, new_uid: moved.uidMap?.get(uid) ?? null })),
            not_found: missing,
          };
        } finally {
          lock.release();
        }
      });
    },
  });
