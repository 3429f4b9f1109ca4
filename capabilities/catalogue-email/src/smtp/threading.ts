import { ToolError } from "@selu-catalogue/kit";
import type { ImapFlow } from "imapflow";
import { fetchByUid } from "../imap/message.js";

/** What a reply needs from the message it answers. */
export interface ReplyContext {
  messageId: string;
  references: string[];
  subject: string;
  /** Where a reply goes by default: the original's Reply-To, else its From. */
  replyTo: { name: string; address: string }[];
}

const MAX_REFERENCES = 20;

/**
 * Reads the Message-ID, References and Subject of the message being answered (mailbox + uid), for
 * correct In-Reply-To / References (RFC 5322 3.6.4): the parent's References plus its Message-ID.
 */
export async function replyContext(client: ImapFlow, mailbox: string, uid: number): Promise<ReplyContext> {
  const lock = await client.getMailboxLock(mailbox, { readOnly: true });
  try {
    const message = await fetchByUid(client, mailbox, uid, { envelope: true, headers: ["references"] });
    const messageId = message.envelope?.messageId;
    if (!messageId || !/^<[^<>\s]+>$/.test(messageId)) {
      throw new ToolError(`reply_to_message: message ${uid} in ${JSON.stringify(mailbox)} has no Message-ID, so a reply can't be threaded to it; send without reply_to_message`);
    }
    const header = (message.headers ?? Buffer.alloc(0)).toString("utf8").replace(/\r?\n[ \t]+/g, " ");
    const references = (/^references:(.*)$/im.exec(header)?.[1] ?? "").match(/<[^<>\s]+>/g) ?? [];
    const chain = [...references.filter((id) => id !== messageId), messageId].slice(-MAX_REFERENCES);
    const replyTo = (message.envelope?.replyTo?.length ? message.envelope.replyTo : (message.envelope?.from ?? [])).filter((a) => a.address).map((a) => ({ name: a.name ?? "", address: a.address! }));
    if (replyTo.length === 0) throw new ToolError(`to: message ${uid} in ${JSON.stringify(mailbox)} has no From or Reply-To address to answer; give to`);
    return { messageId, references: chain, subject: message.envelope?.subject ?? "", replyTo };
  } finally {
    lock.release();
  }
}

/** `Re: <subject>` unless it already starts with Re: (any case). */
export function replySubject(original: string): string {
  return /^re:/i.test(original.trim()) ? original.trim() : `Re: ${original.trim()}`;
}

/** Marks the answered message \Answered, as mail clients do; best effort. */
export async function markAnswered(client: ImapFlow, mailbox: string, uid: number): Promise<boolean> {
  const lock = await client.getMailboxLock(mailbox);
  try {
    return await client.messageFlagsAdd(String(uid), ["\\Answered"], { uid: true });
  } finally {
    lock.release();
  }
}
