import type { ImapFlow } from "imapflow";
import { describe, expect, it } from "vitest";
import { searchableMailboxes } from "./searchable.js";

// searchableMailboxes only reads the LIST answer; these are LIST answers as servers give them.
const listing = (boxes: { path: string; specialUse?: string; flags?: string[] }[]) => ({ list: async () => boxes.map((b) => ({ ...b, flags: new Set(b.flags ?? []) })) }) as unknown as ImapFlow;

describe("searchableMailboxes", () => {
  it("takes INBOX first, then kept mail by path, without Trash, Junk, Drafts or virtual views", async () => {
    const client = listing([
      { path: "Archive", specialUse: "\\Archive" },
      { path: "INBOX" },
      { path: "Trash", specialUse: "\\Trash" },
      { path: "Junk", specialUse: "\\Junk" },
      { path: "Drafts", specialUse: "\\Drafts" },
      { path: "Starred", specialUse: "\\Flagged" },
      { path: "Projects", flags: ["\\Noselect"] },
      { path: "Projects/2026" },
      { path: "Sent", specialUse: "\\Sent" },
    ]);
    expect(await searchableMailboxes(client)).toEqual(["INBOX", "Archive", "Projects/2026", "Sent"]);
  });

  it("searches only All Mail where the server has it (Gmail), so no message is found twice", async () => {
    const client = listing([
      { path: "INBOX" },
      { path: "[Gmail]/All Mail", specialUse: "\\All" },
      { path: "[Gmail]/Important", specialUse: "\\Important" },
      { path: "Receipts" },
      { path: "[Gmail]/Sent Mail", specialUse: "\\Sent" },
    ]);
    expect(await searchableMailboxes(client)).toEqual(["[Gmail]/All Mail"]);
  });
});
