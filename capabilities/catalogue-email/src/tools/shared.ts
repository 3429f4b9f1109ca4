import { ToolError, type ToolContext, type ToolHelpers } from "@selu-catalogue/kit";
import type { ImapFlow } from "imapflow";
import { readAccount, readImapSettings } from "../config.js";
import type { MailCredentials } from "../credentials.js";
import { withImap } from "../imap/session.js";

/** The kit's `tool` helper typed with this capability's credentials. */
export type MailTool = ToolHelpers<MailCredentials>["tool"];
export type MailContext = ToolContext<MailCredentials>;

/** Runs `work` on the user's IMAP account. */
export function imapSession<T>(ctx: MailContext, work: (client: ImapFlow) => Promise<T>): Promise<T> {
  return withImap(ctx, readImapSettings(ctx.credentials), readAccount(ctx.credentials), work);
}

/** Refuses a `before` that is not after `since`, which would match nothing. */
export function checkDateRange(since: string | undefined, before: string | undefined): void {
  if (since && before && before <= since) {
    throw new ToolError(`before (${before}) must be a later day than since (${since}); before is exclusive`);
  }
}
