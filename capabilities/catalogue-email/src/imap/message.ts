import { ToolError } from "@selu-catalogue/kit";
import type { FetchMessageObject, FetchQueryObject, ImapFlow } from "imapflow";

/**
 * Fetches one message by UID from the selected mailbox, or explains that it is not there. UIDs are
 * the stable identity: sequence numbers shift whenever another message is removed.
 */
export async function fetchByUid(client: ImapFlow, mailbox: string, uid: number, query: FetchQueryObject): Promise<FetchMessageObject> {
  const message = await client.fetchOne(String(uid), { ...query, uid: true }, { uid: true });
  if (!message) {
    throw new ToolError(`mailbox ${JSON.stringify(mailbox)} has no message with uid ${uid} (moved or deleted?); ` + "list_messages or search_messages give current uids");
  }
  return message;
}

/** Reads a body part, decoded to UTF-8, up to `maxBytes` (the rest is dropped and reported). */
export async function readTextPart(client: ImapFlow, uid: number, part: string, maxBytes: number): Promise<{ text: string; truncated: boolean }> {
  const { content } = await client.download(String(uid), part, { uid: true, maxBytes: maxBytes + 1 });
  if (!content) return { text: "", truncated: false };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of content as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > maxBytes) {
      content.destroy();
      break;
    }
  }
  const bytes = Buffer.concat(chunks).subarray(0, maxBytes);
  return { text: bytes.toString("utf8"), truncated: size > maxBytes };
}
