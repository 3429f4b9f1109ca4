import type { SendMailOptions } from "nodemailer";

/**
 * Builds the RFC 822 bytes of a message (with its Bcc header, as a sender's own copy shows it), for
 * the Sent mailbox. Same Message-ID and Date as the sent one; only MIME boundaries differ.
 */
export async function rawMessage(mail: SendMailOptions): Promise<Buffer> {
  const { default: MailComposer } = await import("nodemailer/lib/mail-composer");
  const node = new MailComposer({ ...mail, disableFileAccess: true, disableUrlAccess: true }).compile();
  node.keepBcc = true;
  return node.build();
}
