// The public API of @selu-catalogue/testkit/mail: real SMTP and IMAP servers on loopback for tests.
export { composeMessage } from "./compose.js";
export { startImapServer } from "./imap-server.js";
export { startSmtpServer } from "./smtp-server.js";

export type { MessageSpec } from "./compose.js";
export type { ImapServerOptions, ImapTestServer, SeedMessage } from "./imap-server.js";
export type { ReceivedAttachment, ReceivedMessage, SmtpServerOptions, SmtpTestServer } from "./smtp-server.js";
export { startHostileImapServer } from "./hostile-imap.js";
export { startHostileSmtpServer } from "./hostile-smtp.js";
export type { Attack, AttackLog } from "./hostile.js";
export type { HostileImapOptions, HostileImapServer } from "./hostile-imap.js";
export type { HostileSmtpOptions, HostileSmtpServer } from "./hostile-smtp.js";
