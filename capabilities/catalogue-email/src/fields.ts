import { z } from "zod";
import { parseAddress } from "./address.js";
import { MAIL_LIMITS } from "./limits.js";

// Shared argument schemas. Header values are single lines: CR or LF in a header would let the
// caller inject headers (Bcc:) or a second message body, so they are refused, not stripped.

const SINGLE_LINE = /^[^\r\n\0]*$/;

/** A header value (subject and the like): one line, bounded. */
export function headerText(description: string, max = 998) {
  return z.string().max(max).regex(SINGLE_LINE, "must be one line: CR and LF are not allowed in mail headers").describe(description);
}

/** One recipient: `alice@example.com` or `Alice <alice@example.com>`; invalid ones are named. */
export const address = z
  .string()
  .max(320)
  .superRefine((value, ctx) => {
    if (/[\r\n\0]/.test(value)) ctx.addIssue({ code: "custom", message: "CR and LF are not allowed in addresses" });
    else if (!parseAddress(value)) ctx.addIssue({ code: "custom", message: `${JSON.stringify(value.slice(0, 80))} is not an email address like alice@example.com or "Alice <alice@example.com>"` });
  });

export function addressList(description: string, min = 0) {
  return z.array(address).min(min).max(MAIL_LIMITS.maxRecipients).describe(description);
}

/** A mailbox path as list_mailboxes shows it. */
export const mailbox = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[^\r\n\0]*$/, "must be a mailbox name from list_mailboxes (no line breaks)")
  .describe('Mailbox path as list_mailboxes shows it, e.g. "INBOX", "Archive" or "Projects/2026"');

export const uid = z.number().int().min(1).max(4_294_967_295).describe("The message's IMAP UID within the mailbox (from list_messages or search_messages)");

export const uidList = z.array(uid).min(1).max(MAIL_LIMITS.maxUidsPerCall).describe("UIDs of messages in the mailbox");

/** A calendar day, YYYY-MM-DD (IMAP compares dates by day). */
export const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date as YYYY-MM-DD")
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, "is not a real calendar date");

/** A search term sent to the server: one line, bounded, non-empty. */
export function searchTerm(description: string) {
  return z.string().min(1).max(200).regex(SINGLE_LINE, "must be one line: CR and LF are not allowed in search terms").describe(description);
}

export const pageArgs = {
  limit: z.number().int().min(1).max(MAIL_LIMITS.maxPageSize).default(20).describe(`Messages per page (1-${MAIL_LIMITS.maxPageSize}, default 20)`),
  offset: z.number().int().min(0).max(1_000_000).default(0).describe("Skip this many of the newest matches (for the next page, pass next_offset)"),
};

export const dateRange = {
  since: day.optional().describe("Only messages received on or after this day (YYYY-MM-DD)"),
  before: day.optional().describe("Only messages received before this day (YYYY-MM-DD)"),
};
