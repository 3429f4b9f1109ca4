import type { ImapFlow, SearchObject } from "imapflow";
import { SUMMARY_QUERY, summarize, type MessageSummary } from "./summary.js";

/** A page of messages, newest (highest UID) first. */
export interface MessagePage {
  mailbox: string;
  /** Matches in the mailbox, all pages together. */
  total: number;
  offset: number;
  messages: MessageSummary[];
  /** Pass as `offset` for the next page; null on the last page. */
  next_offset: number | null;
}

/** Searches `mailbox` (opened read-only, so nothing is marked seen) and fetches one page of summaries. */
export async function pageOfMessages(client: ImapFlow, mailbox: string, query: SearchObject, limit: number, offset: number): Promise<MessagePage> {
  const lock = await client.getMailboxLock(mailbox, { readOnly: true });
  try {
    const found = await client.search(query, { uid: true });
    const uids = (found || []).sort((a, b) => b - a);
    const slice = uids.slice(offset, offset + limit);
    const messages: MessageSummary[] = [];
    if (slice.length > 0) {
      for await (const message of client.fetch(slice.join(","), SUMMARY_QUERY, { uid: true })) messages.push(summarize(message));
    }
    messages.sort((a, b) => b.uid - a.uid);
    const next = offset + slice.length;
    return { mailbox: lock.path, total: uids.length, offset, messages, next_offset: next < uids.length ? next : null };
  } finally {
    lock.release();
  }
}

/** IMAP SEARCH dates are days; `YYYY-MM-DD` as midnight UTC. */
export function imapDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}
