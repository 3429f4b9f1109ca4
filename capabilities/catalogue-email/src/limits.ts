/** Bounds of the email capability; the README's Limits table states the same numbers. */
export const MAIL_LIMITS = {
  /** Largest single attachment sent or fetched, bytes (also the kit's per-artifact cap). */
  maxAttachmentBytes: 15 * 1024 * 1024,
  /** All attachments of one outgoing message together, bytes (providers cap messages at 20-25 MB encoded). */
  maxTotalAttachmentBytes: 18 * 1024 * 1024,
  maxAttachments: 20,
  maxRecipients: 100,
  /** Calls at once in the (exclusive) container; 4 more wait up to 30 s, past that a call is refused. */
  concurrentCalls: 4,
  /** Messages sent at once per container; more wait (a full-size message needs ~50 MiB while sent). */
  concurrentSends: 1,
  /** Connecting through the proxy, TLS and the server greeting, ms. */
  connectTimeoutMs: 15_000,
  /** Silence on an established SMTP/IMAP connection before it is given up, ms. */
  socketTimeoutMs: 60_000,
  /**
   * What one IMAP response may hold (issue 10 item 3: imapflow's defaults, 1 GiB literals and lines and 2 GiB
   * responses, let a hostile server fill the container in seconds). Bodies and attachments are fetched in
   * 64 KiB partial chunks, so literals stay small; a SEARCH of a million UIDs is a 7 MB line; a response's
   * tokens cost ~100 bytes of heap each. All together stay well inside the 192 MB container.
   */
  imapMaxLiteralBytes: 8 * 1024 * 1024,
  imapMaxLineBytes: 8 * 1024 * 1024,
  imapMaxResponseBytes: 16 * 1024 * 1024,
  imapMaxResponseTokens: 100_000,
  /**
   * Response lines (all but message contents) one call's IMAP session reads. Each response is bounded
   * above, but a server can send thousands of them: tokenising 8 MiB of flags costs about 4 s of CPU here,
   * while a SEARCH of a million UIDs is a 7 MB line.
   */
  imapMaxSessionLineBytes: 8 * 1024 * 1024,
  /** One SMTP reply, all its lines (an EHLO answer is under 1 KB). */
  smtpMaxReplyBytes: 64 * 1024,
  /** Message bodies read for get_message, bytes per text part. */
  maxBodyPartBytes: 2 * 1024 * 1024,
  /** Messages per list/search page. */
  maxPageSize: 50,
  /** UIDs per mark/move call. */
  maxUidsPerCall: 500,
  /** How long a sent message is remembered so a retried call doesn't send it twice, ms. */
  resendWindowMs: 15 * 60 * 1000,
} as const;
