import type { SearchObject } from "imapflow";
import { z } from "zod";
import type { AccessTokens } from "../oauth/access-tokens.js";
import { IMAP_NEEDS } from "../credentials.js";
import { dateRange, mailbox, pageArgs } from "../fields.js";
import { imapDay, pageOfMessages } from "../imap/page.js";
import { fitPage } from "../result-size.js";
import { checkDateRange, imapSession, type MailTool } from "./shared.js";

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
      checkDateRange(args.since, args.before);
      const query: SearchObject = {};
      if (args.unseen_only) query.seen = false;
      if (args.since) query.since = imapDay(args.since);
      if (args.before) query.before = imapDay(args.before);
      if (Object.keys(query).length === 0) query.all = true;
      return { ...(await imapSession(ctx, tokens, (client) => pageOfMessages(client, [args.mailbox], query, args.limit, args.offset))) };
    },
  });
