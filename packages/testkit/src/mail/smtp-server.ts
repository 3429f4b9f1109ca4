import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { simpleParser, type AddressObject } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import type { TestCa } from "../tls/test-ca.js";

/** One attachment of a received message, decoded. */
export interface ReceivedAttachment {
  filename: string | undefined;
  contentType: string;
  /** The decoded bytes, for byte-for-byte comparison with what was sent. */
  content: Buffer;
  size: number;
}

/** A message the SMTP double accepted, parsed with mailparser. */
export interface ReceivedMessage {
  /** The SMTP envelope (MAIL FROM / RCPT TO), which includes Bcc recipients. */
  envelope: { from: string; to: string[] };
  /** The user that authenticated the session. */
  authUser: string | undefined;
  /** Whether the session ran over TLS (STARTTLS or implicit) when the message was sent. */
  secure: boolean;
  from: string[];
  to: string[];
  cc: string[];
  /** The Bcc header (a correct client never sends one). */
  bcc: string[];
  replyTo: string[];
  subject: string | undefined;
  messageId: string | undefined;
  inReplyTo: string | undefined;
  references: string[];
  text: string | undefined;
  html: string | undefined;
  attachments: ReceivedAttachment[];
  /** Every header as received, lowercased names. */
  headers: Map<string, unknown>;
  raw: Buffer;
}

/** Options of {@link startSmtpServer}. */
export interface SmtpServerOptions {
  /** Issues the server's certificate. */
  ca: TestCa;
  /** Names the certificate is issued for: the production host name the client connects to. */
  names: readonly string[];
  /** Accepted logins, user name to password (AUTH PLAIN and LOGIN, only after TLS). */
  users: Record<string, string>;
  /**
   * `starttls` (default: plain greeting, STARTTLS required before AUTH), `tls` (implicit TLS, port 465
   * style), or `none`: STARTTLS not offered and AUTH allowed in clear text, as a stripped (downgraded)
   * connection looks to a client, to test that the client refuses it.
   */
  security?: "starttls" | "tls" | "none";
  /** Recipient addresses answered 550 at RCPT TO (to test partly rejected sends). */
  rejectRecipients?: readonly string[];
  /** Largest message accepted, in bytes (SIZE extension; bigger ones are answered 552). Default 25 MiB. */
  maxMessageBytes?: number;
  /**
   * Also offers SASL XOAUTH2 and accepts a bearer token when this says it is live for the user (an OAuth2
   * provider double's `accepts`); a refused one gets the JSON challenge and 535, as Gmail and Outlook answer.
   */
  acceptsToken?: (username: string, accessToken: string) => boolean;
}

/** A running SMTP double; `close()` it in `afterAll`. */
export interface SmtpTestServer {
  readonly host: string;
  readonly port: number;
  /** Accepted messages in arrival order (a live array). */
  readonly messages: ReceivedMessage[];
  /** Failed AUTH attempts so far. */
  readonly authFailures: number;
  /** Resolves with the messages once at least `count` arrived; rejects after `timeoutMs` (default 5000). */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMessage[]>;
  close(): Promise<void>;
}

/**
 * Starts a real SMTP server (the smtp-server package) on 127.0.0.1 with AUTH and TLS from a test CA.
 * Every accepted message is parsed with mailparser into {@link ReceivedMessage}. Reach it from code
 * under test through the egress proxy double, mapping the provider's `host:port` to `host:port` here.
 *
 * @example
 * const smtp = await startSmtpServer({ ca, names: ["smtp.fastmail.com"], users: { alice: "pw" } });
 * proxy.map("smtp.fastmail.com:587", `${smtp.host}:${smtp.port}`);
 * const [message] = await smtp.waitForMessages(1);
 */
export async function startSmtpServer(options: SmtpServerOptions): Promise<SmtpTestServer> {
  const messages: ReceivedMessage[] = [];
  const waiters = new Set<() => void>();
  const rejected = new Set((options.rejectRecipients ?? []).map((a) => a.toLowerCase()));
  const implicit = options.security === "tls";
  let authFailures = 0;

  const serverOptions: SMTPServerOptions = {
    ...options.ca.issue(options.names),
    secure: implicit,
    name: options.names[0] ?? "localhost",
    authMethods: options.acceptsToken ? ["PLAIN", "LOGIN", "XOAUTH2"] : ["PLAIN", "LOGIN"],
    allowInsecureAuth: options.security === "none",
    // Hidden and refused: smtp-server would otherwise still accept STARTTLS when a client insists.
    hideSTARTTLS: options.security === "none",
    ...(options.security === "none" ? { disabledCommands: ["STARTTLS"] } : {}),
    size: options.maxMessageBytes ?? 25 * 1024 * 1024,
    logger: false,
    disableReverseLookup: true,
    onAuth(auth, _session, callback) {
      if (auth.method === "XOAUTH2") {
        if (options.acceptsToken?.(auth.username ?? "", auth.accessToken ?? "")) return callback(null, { user: auth.username });
        authFailures += 1;
        return callback(null, { data: { status: "401", schemes: "bearer", scope: "https://mail.google.com/" } });
      }
      const expected = options.users[auth.username ?? ""];
      if (expected === undefined || expected !== auth.password) {
        authFailures += 1;
        return callback(new Error("Invalid username or password"));
      }
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      if (rejected.has(address.address.toLowerCase())) {
        return callback(Object.assign(new Error(`<${address.address}>: mailbox unavailable`), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (stream.sizeExceeded) {
          return callback(Object.assign(new Error("message exceeds the size limit"), { responseCode: 552 }));
        }
        const raw = Buffer.concat(chunks);
        parse(raw, session)
          .then((message) => {
            messages.push(message);
            for (const wake of waiters) wake();
            callback();
          })
          .catch(callback);
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  server.on("error", () => {}); // client-side disconnects mid-session are part of some tests
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  const { address, port } = server.server.address() as AddressInfo;

  return {
    host: address,
    port,
    messages,
    get authFailures() {
      return authFailures;
    },
    waitForMessages(count, timeoutMs = 5000) {
      if (messages.length >= count) return Promise.resolve(messages.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`the SMTP server received ${messages.length} of ${count} messages within ${timeoutMs} ms`));
        }, timeoutMs);
        const wake = () => {
          if (messages.length < count) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(messages.slice());
        };
        waiters.add(wake);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function parse(raw: Buffer, session: { envelope: { mailFrom: false | { address: string }; rcptTo: { address: string }[] }; user?: unknown; secure: boolean }): Promise<ReceivedMessage> {
  const mail = await simpleParser(raw, { skipImageLinks: true, skipTextLinks: true });
  const references = mail.references === undefined ? [] : Array.isArray(mail.references) ? mail.references : [mail.references];
  return {
    envelope: {
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
      to: session.envelope.rcptTo.map((r) => r.address),
    },
    authUser: typeof session.user === "string" ? session.user : undefined,
    secure: session.secure,
    from: addresses(mail.from),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    bcc: addresses(mail.bcc),
    replyTo: addresses(mail.replyTo),
    subject: mail.subject,
    messageId: mail.messageId,
    inReplyTo: mail.inReplyTo,
    references,
    text: mail.text,
    html: typeof mail.html === "string" ? mail.html : undefined,
    attachments: mail.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: a.content,
      size: a.content.length,
    })),
    headers: mail.headers as Map<string, unknown>,
    raw,
  };
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  if (!field) return [];
  const list = Array.isArray(field) ? field : [field];
  return list.flatMap((group) => group.value.flatMap((a) => (a.address ? [a.address] : (a.group ?? []).map((g) => g.address ?? ""))));
}
