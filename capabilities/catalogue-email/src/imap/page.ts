import type { ImapFlow, SearchObject } from "imapflow";
import { SUMMARY_QUERY, summarize, type MessageSummary } from "./summary.js";
import { UNREQUESTED_MESSAGE } from "./errors.js";
import { searchUids } from "./search-uids.js";

/** A page of messages: per mailbox in the order searched, newest (highest UID) first within each. */
export interface MessagePage {
  /** The mailbox searched, or "*" for all of them (then each message names its own). */
  mailbox: string;
  /** Matches, all pages together. */
  total: number;
  offset: number;
  messages: MessageSummary[];
  /** Pass as `offset` for the next page; null on the last page. */
  next_offset: number | null;
}

interface Hits {
  mailbox: string;
  uids: number[];
}

/**
 * Searches each of `mailboxes` (opened read-only, so nothing is marked seen) and fetches the
 * summaries of one page of the hits. Only the page's messages are fetched, whatever the total.
 */
export async function pageOfMessages(client: ImapFlow, mailboxes: readonly string[], query: SearchObject, limit: number, offset: number, label = mailboxes[0] ?? "*"): Promise<MessagePage> {
  const hits: Hits[] = [];
  for (const mailbox of mailboxes) {
    const lock = await client.getMailboxLock(mailbox, { readOnly: true });
    try {
      const found = await searchUids(client, query, lock.path);
      hits.push({ mailbox: lock.path, uids: found.sort((a, b) => b - a) });
    } finally {
      lock.release();
    }
  }
  const total = hits.reduce((sum, h) => sum + h.uids.length, 0);
  const messages: MessageSummary[] = [];
  let skip = offset;
  for (const { mailbox, uids } of hits) {
    const wanted = uids.slice(skip, skip + limit - messages.length);
    skip = Math.max(0, skip - uids.length);
    if (wanted.length === 0) continue;
    const lock = await client.getMailboxLock(mailbox, { readOnly: true });
    try {
      const page: MessageSummary[] = [];
      const asked = new Set(wanted);
      for await (const message of client.fetch(wanted.join(","), SUMMARY_QUERY, { uid: true })) {
        // Only the UIDs asked for, each once: a server that floods the page is cut off (issue 10 item 3).
        if (!asked.delete(message.uid)) throw Object.assign(new Error(`uid ${message.uid} in ${mailbox} was not asked for`), { code: UNREQUESTED_MESSAGE });
        page.push(summarize(mailbox, message));
      }
      messages.push(...page.sort((a, b) => b.uid - a.uid));
    } finally {
      lock.release();
    }
    if (messages.length >= limit) break;
  }
  const next = offset + messages.length;
  const mailbox = mailboxes.length === 1 ? (hits[0]?.mailbox ?? label) : label;
  return { mailbox, total, offset, messages, next_offset: next < total ? next : null };
}
