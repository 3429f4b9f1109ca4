import { ToolError } from "@selu-catalogue/kit";
import type { ImapFlow, SearchObject } from "imapflow";

/**
 * UIDs matching `query` in the selected mailbox. imapflow answers `false` when the server refuses the
 * SEARCH (NO or BAD: an unsupported charset, a server limit); that must not read as "no matches".
 */
export async function searchUids(client: ImapFlow, query: SearchObject, mailbox: string): Promise<number[]> {
  const found = await client.search(query, { uid: true });
  if (found === false) {
    throw new ToolError(`the IMAP server refused the search in ${JSON.stringify(mailbox)}; try simpler criteria (e.g. ASCII-only text) or try again later`);
  }
  return found ?? [];
}
