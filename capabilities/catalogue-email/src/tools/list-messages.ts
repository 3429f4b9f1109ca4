import { z } from "zod";
import type { AccessTokens } from "../oauth/access-tokens.js";
import { IMAP_NEEDS } from "../credentials.js";
import { dateRange, mailbox, pageArgs } from "../fields.js";
import { searchCriteria } from "../imap/criteria.js";
import { pageOfMessages } from "../imap/page.js";
import { fitPage } from "../result-size.js";
import { imapSession, type MailTool } from "./shared.js";

/** list_messages: one page of a mailbox, newest first (read-only, EXAMINE: nothing is marked seen). */
export const listMessages = (tool: MailTool, tokens: AccessTokens) =>
  tool({
    description:
      "Lists messages in a mailbox, newest first, one page at a time: uid, date, from, to, subject, " +
      "seen/flagged/answered, attachment count, size. A message is identified by mailbox + uid (stable " +
      "while it stays in that mailbox); pass both to get_message. Does not mark messages as read.",
    input: z.object({
      mailbox: mailbox.default("INBOX"),
      unseen_only: z.boolean().default(false).describe("Only unread messages"),
      ...dateRange,
      ...pageArgs,
    }),
    policy: "allow",
    fit: fitPage,
    needs: [...IMAP_NEEDS],
    async run(args, ctx) {
      const query = searchCriteria(args);
      return { ...(await imapSession(ctx, tokens, (client) => pageOfMessages(client, [args.mailbox], query, args.limit, args.offset))) };
    },
  });
