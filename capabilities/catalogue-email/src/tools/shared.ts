import type { ToolContext, ToolHelpers } from "@selu-catalogue/kit";
import type { ImapFlow } from "imapflow";
import { readAccount } from "../account.js";
import { readImapSettings } from "../config.js";
import type { MailCredentials } from "../credentials.js";
import { withImap } from "../imap/session.js";
import type { AccessTokens } from "../oauth/access-tokens.js";

/** The kit's `tool` helper typed with this capability's credentials. */
export type MailTool = ToolHelpers<MailCredentials>["tool"];
export type MailContext = ToolContext<MailCredentials>;

/** Runs `work` on the user's IMAP account, logged in with its password or OAuth2 access token. */
export function imapSession<T>(ctx: MailContext, tokens: AccessTokens, work: (client: ImapFlow) => Promise<T>): Promise<T> {
  return withImap(ctx, readImapSettings(ctx.credentials), { account: readAccount(ctx.credentials), tokens }, work);
}
