import tls from "node:tls";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestCa } from "../tls/test-ca.js";
import { startImapServer, type ImapTestServer } from "./imap-server.js";
import { startSmtpServer, type SmtpTestServer } from "./smtp-server.js";

const ca = createTestCa();

describe("startSmtpServer", () => {
  let smtp: SmtpTestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer({ ca, names: ["smtp.example.com"], users: { alice: "pw" }, rejectRecipients: ["nobody@example.com"] });
  });
  afterAll(() => smtp.close());

  const transport = (pass: string) =>
    nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: false,
      requireTLS: true,
      auth: { user: "alice", pass },
      tls: { ca: ca.certPem, servername: "smtp.example.com" },
    });

  it("accepts an authenticated message over STARTTLS and parses its attachments", async () => {
    const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10]);
    const info = await transport("pw").sendMail({
      from: "alice@example.com",
      to: ["bob@example.com", "nobody@example.com"],
      bcc: "carol@example.com",
      subject: "Report",
      text: "see attached",
      attachments: [{ filename: "r.pdf", content: pdf, contentType: "application/pdf" }],
    });
    expect(info.rejected).toEqual(["nobody@example.com"]);
    const [message] = await smtp.waitForMessages(1);
    expect(message).toMatchObject({ authUser: "alice", secure: true, subject: "Report", to: ["bob@example.com", "nobody@example.com"], bcc: [] });
    expect(message!.envelope.to).toEqual(["bob@example.com", "carol@example.com"]);
    expect(message!.attachments[0]).toMatchObject({ filename: "r.pdf", contentType: "application/pdf" });
    expect(message!.attachments[0]!.content.equals(pdf)).toBe(true);
  });

  it("refuses a wrong password and counts it", async () => {
    await expect(transport("nope").sendMail({ from: "alice@example.com", to: "bob@example.com", text: "x" })).rejects.toThrow(/Invalid username or password/);
    expect(smtp.authFailures).toBe(1);
  });

  it("refuses AUTH before TLS", async () => {
    const plain = nodemailer.createTransport({ host: smtp.host, port: smtp.port, secure: false, ignoreTLS: true, auth: { user: "alice", pass: "pw" } });
    await expect(plain.sendMail({ from: "alice@example.com", to: "bob@example.com", text: "x" })).rejects.toThrow();
  });
});

describe("startSmtpServer with security none", () => {
  it("refuses STARTTLS and takes AUTH in clear text, as a stripped connection would", async () => {
    const stripped = await startSmtpServer({ ca, names: ["smtp.example.com"], users: { alice: "pw" }, security: "none" });
    try {
      const insisting = nodemailer.createTransport({ host: stripped.host, port: stripped.port, requireTLS: true, auth: { user: "alice", pass: "pw" }, tls: { ca: ca.certPem } });
      await expect(insisting.sendMail({ from: "alice@example.com", to: "bob@example.com", text: "x" })).rejects.toThrow(/STARTTLS/);
      const plain = nodemailer.createTransport({ host: stripped.host, port: stripped.port, ignoreTLS: true, auth: { user: "alice", pass: "pw" } });
      await plain.sendMail({ from: "alice@example.com", to: "bob@example.com", text: "x" });
      expect((await stripped.waitForMessages(1))[0]).toMatchObject({ secure: false, authUser: "alice" });
    } finally {
      await stripped.close();
    }
  });
});

describe("startImapServer", () => {
  let imap: ImapTestServer;
  beforeAll(async () => {
    imap = await startImapServer({
      ca,
      names: ["imap.example.com"],
      users: { "alice@example.com": "pw" },
      seed: [
        { message: { from: "bob@example.com", to: "alice@example.com", subject: "first", text: "one" }, flags: ["\\Seen"] },
        { message: { from: "bob@example.com", to: "alice@example.com", subject: "second", text: "two", attachments: [{ filename: "a.bin", content: Buffer.from([1, 2, 3]) }] } },
        { mailbox: "Projects/2026", message: { from: "carol@example.com", to: "alice@example.com", subject: "nested", text: "three" } },
      ],
    });
  }, 20_000);
  afterAll(() => imap.close());

  it("serves seeded messages over verified TLS with UIDs in seed order", async () => {
    const out = await converse(imap.port, ['a LOGIN "alice@example.com" "pw"', "b SELECT INBOX", "c UID FETCH 1:* (FLAGS BODY.PEEK[HEADER.FIELDS (SUBJECT)])", 'd LIST "" "*"', "e LOGOUT"]);
    expect(out).toMatch(/a OK/);
    expect(out).toMatch(/\* 2 EXISTS/);
    expect(out).toMatch(/UID 1 FLAGS \(\\Seen[^)]*\)[^]*Subject: first[^]*UID 2 FLAGS \((\\Recent)?\)[^]*Subject: second/);
    expect(out).toMatch(/"\/" Projects\/2026/);
    expect(out).toMatch(/\(\\HasNoChildren \\Sent\) "\/" Sent/);
  });

  it("refuses a wrong password", async () => {
    const out = await converse(imap.port, ['a LOGIN "alice@example.com" "wrong"', "b LOGOUT"]);
    expect(out).toMatch(/a NO \[AUTHENTICATIONFAILED\]/);
  });

  it("explains a missing dovecot binary", async () => {
    await expect(startImapServer({ ca, names: ["imap.example.com"], users: { a: "b" }, dovecot: "/nonexistent/dovecot" })).rejects.toThrow(/install Debian's dovecot-imapd/);
  });

  it("takes deliveries while running", async () => {
    await imap.deliver({ message: { from: "dan@example.com", to: "alice@example.com", subject: "late", text: "four" } });
    const out = await converse(imap.port, ['a LOGIN "alice@example.com" "pw"', "b SELECT INBOX", "c LOGOUT"]);
    expect(out).toMatch(/\* 3 EXISTS/);
  });
});

/** Sends IMAP commands one by one, each after the previous tagged answer; returns the whole exchange. */
function converse(port: number, commands: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: "127.0.0.1", port, ca: ca.certPem, servername: "imap.example.com" });
    let text = "";
    let next = 0;
    let waitingFor = "* OK";
    socket.on("data", (d: Buffer) => {
      text += d.toString();
      while (text.includes(`\n${waitingFor}`) || text.startsWith(waitingFor)) {
        if (next === commands.length) return (socket.end(), resolve(text));
        const command = commands[next++]!;
        waitingFor = `${command.split(" ")[0]} `;
        socket.write(`${command}\r\n`);
      }
    });
    socket.on("error", reject);
    socket.setTimeout(5000, () => (socket.destroy(), reject(new Error(`timeout; got: ${text}`))));
  });
}
