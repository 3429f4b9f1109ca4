import type { ImapFlow } from "imapflow";

// Searching "everywhere" means where mail is kept: not Trash, Junk or Drafts.
const SKIPPED = new Set(["\\Trash", "\\Junk", "\\Drafts"]);

/** The mailboxes an all-mailbox search covers: INBOX first, then the rest by path. */
export async function searchableMailboxes(client: ImapFlow): Promise<string[]> {
  const boxes = (await client.list()).filter(
    (box) => !box.flags.has("\\Noselect") && !box.flags.has("\\NonExistent") && !(box.specialUse && SKIPPED.has(box.specialUse)),
  );
  const paths = boxes.map((box) => box.path);
  const inbox = paths.filter((p) => p.toUpperCase() === "INBOX");
  return [...inbox, ...paths.filter((p) => p.toUpperCase() !== "INBOX").sort()];
}
