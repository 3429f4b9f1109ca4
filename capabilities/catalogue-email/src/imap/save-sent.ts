import { ToolError } from "@selu-catalogue/kit";
import type { ImapFlow } from "imapflow";

/**
 * Stores a copy of a sent message in the account's Sent mailbox (special use \Sent, else one named
 * "Sent"), flagged \Seen, as mail clients do for providers that don't keep SMTP-sent mail themselves.
 * Returns the mailbox path.
 */
export async function saveToSent(client: ImapFlow, raw: Buffer, date: Date): Promise<string> {
  const boxes = await client.list();
  const sent = boxes.find((box) => box.specialUse === "\\Sent") ?? boxes.find((box) => box.path.toLowerCase() === "sent");
  if (!sent) throw new ToolError("the account has no Sent mailbox (special use \\Sent or named Sent)");
  const stored = await client.append(sent.path, raw, ["\\Seen"], date);
  if (!stored) throw new ToolError(`the IMAP server did not store the copy in ${JSON.stringify(sent.path)}`);
  return sent.path;
}
