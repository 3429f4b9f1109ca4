import type { ImapFlow } from "imapflow";

// Searching "everywhere" means where mail is kept: not Trash, Junk or Drafts; and not the virtual
// views (\Flagged, Gmail's Important) that show messages kept elsewhere a second time.
const SKIPPED = new Set(["\\Trash", "\\Junk", "\\Drafts", "\\Flagged", "\\Important"]);

/**
 * The mailboxes an all-mailbox search covers: INBOX first, then the rest by path. A server with an
 * `\All` mailbox (Gmail's All Mail) holds every kept message there once, and each label folder shows
 * them again, so only that mailbox is searched.
 */
export async function searchableMailboxes(client: ImapFlow): Promise<string[]> {
  const boxes = (await client.list()).filter((box) => !box.flags.has("\\Noselect") && !box.flags.has("\\NonExistent"));
  const all = boxes.find((box) => box.specialUse === "\\All" || box.flags.has("\\All"));
  if (all) return [all.path];
  const paths = boxes.filter((box) => !(box.specialUse && SKIPPED.has(box.specialUse))).map((box) => box.path);
  const inbox = paths.filter((p) => p.toUpperCase() === "INBOX");
  return [...inbox, ...paths.filter((p) => p.toUpperCase() !== "INBOX").sort()];
}
