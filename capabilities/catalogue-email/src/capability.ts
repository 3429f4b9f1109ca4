import { defineCapability } from "@selu-catalogue/kit";
import { credentials } from "./credentials.js";
import { MAIL_LIMITS } from "./limits.js";
import { AccessTokens } from "./oauth/access-tokens.js";
import { SentMessages } from "./smtp/sent-messages.js";
import { getAttachment } from "./tools/get-attachment.js";
import { getMessage } from "./tools/get-message.js";
import { listMailboxes } from "./tools/list-mailboxes.js";
import { listMessages } from "./tools/list-messages.js";
import { markMessages } from "./tools/mark-messages.js";
import { moveMessages } from "./tools/move-messages.js";
import { searchMessages } from "./tools/search-messages.js";
import type { SentRecord } from "./smtp/deliver.js";
import { sendEmail } from "./tools/send-email.js";

/** The email capability: send with attachments over SMTP, read, search and file mail over IMAP. */
export default defineCapability({
  id: "catalogue-email",
  credentials,
  limits: {
    maxArtifactBytes: MAIL_LIMITS.maxAttachmentBytes,
    // Room for one message's worth of attachments in and a few fetched ones out.
    artifactBudgetBytes: 48 * 1024 * 1024,
    calls: { max: MAIL_LIMITS.concurrentCalls, maxWaiting: MAIL_LIMITS.concurrentCalls },
    // ctx.slots: one send at a time (send_email is the only tool that takes them).
    workSlots: MAIL_LIMITS.concurrentSends,
  },
  tools: ({ tool }) => {
    // OAuth2 access tokens, shared by every tool of this container until shortly before they expire.
    const tokens = new AccessTokens();
    return {
      send_email: sendEmail(tool, tokens, new SentMessages<SentRecord>({ windowMs: MAIL_LIMITS.resendWindowMs })),
      list_mailboxes: listMailboxes(tool, tokens),
      list_messages: listMessages(tool, tokens),
      get_message: getMessage(tool, tokens),
      search_messages: searchMessages(tool, tokens),
      get_attachment: getAttachment(tool, tokens),
      mark_messages: markMessages(tool, tokens),
      move_messages: moveMessages(tool, tokens),
    };
  },
});
