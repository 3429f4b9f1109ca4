import { ToolError } from "@selu-catalogue/kit";
import { z } from "zod";
import type { AccessTokens } from "../oauth/access-tokens.js";
import { IMAP_NEEDS } from "../credentials.js";
import { mailbox, uidList } from "../fields.js";
import { searchUids } from "../imap/search-uids.js";
import { imapSession, type MailTool } from "./shared.js";

const FLAGS = { seen: "\\Seen", flagged: "\\Flagged", answered: "\\Answered" } as const;

/** mark_messages: sets or clears \Seen, \Flagged, \Answered (policy ask). */
export const markMessages = (tool: MailTool, tokens: AccessTokens) =>
  tool({
    description: "Marks messages (mailbox + uids) as read or unread, flagged or not, answered or not. Give at " + "least one of seen, flagged, answered; true sets the flag, false clears it.",
    input: z.object({
      mailbox: mailbox.default("INBOX"),
      uids: uidList,
      seen: z.boolean().optional().describe("true: mark as read; false: mark as unread"),
      flagged: z.boolean().optional().describe("true: flag (star); false: unflag"),
      answered: z.boolean().optional().describe("true: mark as answered; false: clear"),
    }),
    policy: "ask",
    needs: [...IMAP_NEEDS],
    async run(args, ctx) {
      const add: string[] = [];
      const remove: string[] = [];
      for (const key of ["seen", "flagged", "answered"] as const) {
        if (args[key] === true) add.push(FLAGS[key]);
        if (args[key] === false) remove.push(FLAGS[key]);
      }
      if (add.length + remove.length === 0) throw new ToolError("seen, flagged, answered: give at least one of them (true or false)");
      return imapSession(ctx, tokens, async (client) => {
        const lock = await client.getMailboxLock(args.mailbox);
        try {
          const range = args.uids.join(",");
          const present = await searchUids(client, { uid: range }, lock.path);
          const missing = args.uids.filter((u) => !present.includes(u));
          if (present.length > 0) {
            // imapflow answers false when the server refuses the STORE (a read-only mailbox, no permission).
            const stored =
              (add.length === 0 || (await client.messageFlagsAdd(present.join(","), add, { uid: true }))) &&
              (remove.length === 0 || (await client.messageFlagsRemove(present.join(","), remove, { uid: true })));
            if (!stored) throw new ToolError(`the IMAP server refused to change flags in ${JSON.stringify(lock.path)}; the mailbox may be read-only`);
          }
          return { mailbox: lock.path, updated: present.sort((a, b) => a - b), not_found: missing, added: add, removed: remove };
        } finally {
          lock.release();
        }
      });
    },
  });
