import type { SearchObject } from "imapflow";
import { z } from "zod";
import type { AccessTokens } from "../oauth/access-tokens.js";
import { IMAP_NEEDS } from "../credentials.js";
import { dateRange, mailbox, pageArgs, searchTerm } from "../fields.js";
import { searchCriteria } from "../imap/criteria.js";
import { pageOfMessages } from "../imap/page.js";
import { fitPage } from "../result-size.js";
import { searchableMailboxes } from "../imap/searchable.js";
import { imapSession, type MailTool } from "./shared.js";

/** search_messages: IMAP SEARCH in one mailbox or all ("*"); values travel as IMAP strings, never as syntax. */
export const searchMessages = (tool: MailTool, tokens: AccessTokens) =>
  tool({
    description:
      "Searches a mailbox on the server (IMAP SEARCH; all criteria must match, text matching is " +
      'case-insensitive substring), or every mailbox but Trash, Junk and Drafts with mailbox "*". ' +
      "Returns the same page shape as list_messages, newest first per mailbox; each hit carries its " +
      "mailbox and uid for get_message.",
    input: z.object({
      mailbox: mailbox.default("INBOX").describe('Mailbox path as list_mailboxes shows it, or "*" for all but Trash, Junk and Drafts (default INBOX)'),
      from: searchTerm("Sender address or name contains this").optional(),
      to: searchTerm("A To recipient contains this").optional(),
      cc: searchTerm("A Cc recipient contains this").optional(),
      subject: searchTerm("Subject contains this").optional(),
      text: searchTerm("Headers or body contain this").optional(),
      body: searchTerm("Body contains this").optional(),
      unseen_only: z.boolean().default(false).describe("Only unread messages"),
      flagged_only: z.boolean().default(false).describe("Only flagged (starred) messages"),
      ...dateRange,
      ...pageArgs,
    }),
    policy: "allow",
    fit: fitPage,
    needs: [...IMAP_NEEDS],
    async run(args, ctx) {
      // imapflow sends each value as a quoted string or a literal (never spliced into the command
      // text), and the schema already refused CR/LF: nothing here can change the SEARCH syntax.
      const criteria: SearchObject = {};
      for (const key of ["from", "to", "cc", "subject", "text", "body"] as const) {
        const value = args[key];
        if (value !== undefined) criteria[key] = value;
      }
      if (args.flagged_only) criteria.flagged = true;
      const query = searchCriteria(args, criteria);
      return {
        ...(await imapSession(ctx, tokens, async (client) => {
          const mailboxes = args.mailbox === "*" ? await searchableMailboxes(client) : [args.mailbox];
          return pageOfMessages(client, mailboxes, query, args.limit, args.offset, args.mailbox);
        })),
      };
    },
  });
