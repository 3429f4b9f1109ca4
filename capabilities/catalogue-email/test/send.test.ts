import { randomBytes } from "node:crypto";
import { peakRssMiB } from "@selu-catalogue/testkit/container";
import { startSmtpServer } from "@selu-catalogue/testkit/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREDENTIALS, PASSWORD, USER, fails, invokeDirect, ok, startMailWorld, type MailWorld } from "./harness.js";

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld([
    {
      message: {
        from: "Bob <bob@example.com>",
        to: USER,
        subject: "Quarterly numbers",
        text: "Can you send the report?",
        messageId: "<q3-numbers@example.com>",
        references: ["<thread-start@example.com>"],
      },
    },
  ]);
}, 30_000);
afterAll(() => world?.close());

const store = (filename: string, mimeType: string, bytes: Buffer) => world.orchestrator.vault.store("user-1", filename, mimeType, bytes).artifactId;

describe("send_email", () => {
  it("sends text with attachments of any type over STARTTLS, byte for byte, Bcc only in the envelope", async () => {
    const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(300_000)]);
    const png = randomBytes(4096);
    const latin1Csv = Buffer.from("name;city\nJürgen;Köln\n", "latin1");
    const before = world.smtp.messages.length;
    const result = await ok(world.orchestrator, "send_email", {
      to: ["Bob Builder <bob@example.com>"],
      cc: ["carol@example.com"],
      bcc: ["dave@example.com"],
      subject: "Report Q3 – Grüße",
      text: "Here is the report.",
      attachments: [{ artifact_id: store("report.pdf", "application/pdf", pdf) }, { artifact_id: store("chart.png", "image/png", png) }, { artifact_id: store("people.csv", "text/csv", latin1Csv) }],
    });
    expect(result).toMatchObject({ accepted: ["bob@example.com", "carol@example.com", "dave@example.com"], rejected: [], duplicate: false, from: `Alice Example <${USER}>` });
    expect(result.message_id).toMatch(/^<[0-9a-f]{32}@fastmail\.test>$/);
    const [message] = (await world.smtp.waitForMessages(before + 1)).slice(before);
    expect(message).toMatchObject({
      authUser: USER,
      secure: true,
      subject: "Report Q3 – Grüße",
      messageId: result.message_id,
      to: ["bob@example.com"],
      cc: ["carol@example.com"],
      bcc: [],
      from: [USER],
    });
    expect(message!.envelope).toEqual({ from: USER, to: ["bob@example.com", "carol@example.com", "dave@example.com"] });
    expect(message!.raw.toString("latin1")).not.toMatch(/dave@example\.com/);
    expect(message!.text?.trim()).toBe("Here is the report.");
    expect(message!.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ["report.pdf", "application/pdf"],
      ["chart.png", "image/png"],
      ["people.csv", "text/csv"],
    ]);
    expect(message!.attachments[0]!.content.equals(pdf)).toBe(true);
    expect(message!.attachments[1]!.content.equals(png)).toBe(true);
    expect(message!.attachments[2]!.content.equals(latin1Csv)).toBe(true);
    // Only the proxy was used, to the allowlisted provider name.
    expect(world.proxy.attempts.filter((a) => a.host === "smtp.fastmail.com").every((a) => a.decision === "mapped")).toBe(true);
  });

  it("sends over implicit TLS when SMTP_PORT is 465", async () => {
    const orchestrator = await world.withCredentials({ SMTP_PORT: "465" });
    const result = await ok(orchestrator, "send_email", { to: ["bob@example.com"], subject: "over 465", text: "hi" });
    const [message] = await world.smtps.waitForMessages(1);
    expect(message).toMatchObject({ secure: true, subject: "over 465", messageId: result.message_id });
  });

  it("renders markdown to HTML with the markdown as the text part", async () => {
    const before = world.smtp.messages.length;
    await ok(world.orchestrator, "send_email", { to: ["bob@example.com"], subject: "md", markdown: "# Agenda\n\n- **one**\n- two" });
    const [message] = (await world.smtp.waitForMessages(before + 1)).slice(before);
    expect(message!.html).toContain("<h1>Agenda</h1>");
    expect(message!.html).toContain("<strong>one</strong>");
    expect(message!.text).toContain("- **one**");
  });

  it("makes a text part from an HTML-only body", async () => {
    const before = world.smtp.messages.length;
    await ok(world.orchestrator, "send_email", { to: ["bob@example.com"], subject: "html", html: "<p>Hello <b>Bob</b></p><p>Bye</p>" });
    const [message] = (await world.smtp.waitForMessages(before + 1)).slice(before);
    expect(message!.html).toContain("<b>Bob</b>");
    expect(message!.text).toMatch(/Hello Bob\s+Bye/);
  });

  it("threads a reply: In-Reply-To and References from the original, Re: subject, original marked answered", async () => {
    const found = await ok(world.orchestrator, "search_messages", { subject: "Quarterly numbers" });
    const uid = found.messages[0].uid as number;
    const before = world.smtp.messages.length;
    const result = await ok(world.orchestrator, "send_email", { text: "Attached.", reply_to_message: { mailbox: "INBOX", uid } });
    expect(result.accepted).toEqual(["bob@example.com"]); // the original's From
    const [message] = (await world.smtp.waitForMessages(before + 1)).slice(before);
    expect(message).toMatchObject({
      to: ["bob@example.com"],
      subject: "Re: Quarterly numbers",
      inReplyTo: "<q3-numbers@example.com>",
      references: ["<thread-start@example.com>", "<q3-numbers@example.com>"],
      messageId: result.message_id,
    });
    const original = await ok(world.orchestrator, "get_message", { mailbox: "INBOX", uid });
    expect(original.answered).toBe(true);
  });

  it("stores a copy in the Sent mailbox when asked, with the same Message-ID and attachments", async () => {
    const pdf = Buffer.from("%PDF-1.4 sent copy");
    const result = await ok(world.orchestrator, "send_email", {
      to: ["bob@example.com"],
      bcc: ["boss@example.com"],
      subject: "Keep a copy",
      text: "for the records",
      save_to_sent: true,
      attachments: [{ artifact_id: store("copy.pdf", "application/pdf", pdf) }],
    });
    expect(result.saved_to).toBe("Sent");
    const page = await ok(world.orchestrator, "search_messages", { mailbox: "Sent", subject: "Keep a copy" });
    expect(page.messages[0]).toMatchObject({ seen: true, attachments: 1 });
    const copy = await ok(world.orchestrator, "get_message", { mailbox: "Sent", uid: page.messages[0].uid });
    expect(copy).toMatchObject({ message_id: result.message_id, subject: "Keep a copy", to: ["bob@example.com"] });
    const file = await ok(world.orchestrator, "get_attachment", { mailbox: "Sent", uid: copy.uid, attachment_id: copy.attachments[0].attachment_id });
    expect(world.orchestrator.vault.get(file.artifact.artifact_id)!.bytes.equals(pdf)).toBe(true);
  });

  it("sets Reply-To", async () => {
    const before = world.smtp.messages.length;
    await ok(world.orchestrator, "send_email", { to: ["bob@example.com"], subject: "rt", text: "x", reply_to: "Team <team@example.com>" });
    const [message] = (await world.smtp.waitForMessages(before + 1)).slice(before);
    expect(message!.replyTo).toEqual(["team@example.com"]);
  });

  it("reports recipients the server rejected next to the accepted ones", async () => {
    const result = await ok(world.orchestrator, "send_email", { to: ["bob@example.com", "bounce@example.com"], subject: "partly", text: "x" });
    expect(result.accepted).toEqual(["bob@example.com"]);
    expect(result.rejected).toEqual(["bounce@example.com"]);
  });

  it("does not send the same message twice when a call is retried, even concurrently", async () => {
    const args = { to: ["bob@example.com"], subject: `retry ${randomBytes(4).toString("hex")}`, text: "once" };
    const count = () => world.smtp.messages.filter((m) => m.subject === args.subject).length;
    const [a, b] = await Promise.all([ok(world.orchestrator, "send_email", args), ok(world.orchestrator, "send_email", args)]);
    const c = await ok(world.orchestrator, "send_email", args);
    expect([a.duplicate, b.duplicate].sort()).toEqual([false, true]);
    expect(c).toMatchObject({ duplicate: true, message_id: a.message_id });
    expect(c.note).toMatch(/not sent again/);
    await new Promise((r) => setTimeout(r, 300));
    expect(count()).toBe(1);
    const again = await ok(world.orchestrator, "send_email", { ...args, resend: true });
    expect(again.duplicate).toBe(false);
    expect(again.message_id).not.toBe(a.message_id);
    await world.smtp.waitForMessages(world.smtp.messages.length);
    expect(count()).toBe(2);
  });

  it("sends the largest allowed message (18 MiB of attachments) within the manifest's memory limit", async () => {
    const files = [0, 1, 2].map((i) => randomBytes(6 * 1024 * 1024 - i));
    const before = world.smtp.messages.length;
    await ok(world.orchestrator, "send_email", {
      to: ["bob@example.com"],
      subject: "big",
      text: "three big files",
      attachments: files.map((bytes, i) => ({ artifact_id: store(`part${i}.bin`, "application/octet-stream", bytes) })),
    });
    const [message] = (await world.smtp.waitForMessages(before + 1, 30_000)).slice(before);
    expect(message!.attachments.map((a, i) => a.content.equals(files[i]!))).toEqual([true, true, true]);
    expect(peakRssMiB(world.proc.child.pid!)).toBeLessThan(world.manifestMemoryMb);
  }, 60_000);

  it("sends different messages called at the same time, one after the other", async () => {
    const subjects = ["parallel 1", "parallel 2", "parallel 3"];
    const results = await Promise.all(subjects.map((subject) => ok(world.orchestrator, "send_email", { to: ["bob@example.com"], subject, text: subject })));
    expect(new Set(results.map((r) => r.message_id)).size).toBe(3);
    await world.smtp.waitForMessages(world.smtp.messages.length);
    expect(subjects.every((s) => world.smtp.messages.some((m) => m.subject === s))).toBe(true);
  });

  it("recognises a retry whose attachments were uploaded again (new ids, same bytes)", async () => {
    const bytes = randomBytes(1000);
    const args = (id: string) => ({ to: ["bob@example.com"], subject: "attached twice", text: "x", attachments: [{ artifact_id: id }] });
    const first = await ok(world.orchestrator, "send_email", args(store("a.bin", "application/octet-stream", bytes)));
    const second = await ok(world.orchestrator, "send_email", args(store("a.bin", "application/octet-stream", bytes)));
    expect(first.duplicate).toBe(false);
    expect(second.duplicate).toBe(true);
  });
});

describe("send_email refuses bad input before connecting", () => {
  const attemptsNow = () => world.proxy.attempts.length;

  it.each([
    ["subject", { to: ["bob@example.com"], subject: "Hi\r\nBcc: victim@example.com", text: "x" }, /subject: must be one line/],
    ["to", { to: ["bob@example.com\r\nBcc: victim@example.com"], subject: "s", text: "x" }, /to\[0\]: CR and LF are not allowed/],
    ["reply_to", { to: ["bob@example.com"], subject: "s", text: "x", reply_to: "a@example.com\nX-Evil: 1" }, /reply_to: CR and LF/],
  ])("refuses CR/LF in %s", async (_field, args, expected) => {
    const before = attemptsNow();
    expect(await fails(world.orchestrator, "send_email", args)).toMatch(expected);
    expect(attemptsNow()).toBe(before);
  });

  it("names each invalid address", async () => {
    const error = await fails(world.orchestrator, "send_email", { to: ["bob@example.com", "bob@"], cc: ["not an address"], subject: "s", text: "x" });
    expect(error).toContain('to[1]: "bob@" is not an email address');
    expect(error).toContain('cc[0]: "not an address" is not an email address');
  });

  it("asks for recipients unless replying", async () => {
    expect(await fails(world.orchestrator, "send_email", { subject: "s", text: "x" })).toMatch(/to: required unless replying/);
  });

  it("asks for a body", async () => {
    expect(await fails(world.orchestrator, "send_email", { to: ["bob@example.com"], subject: "s" })).toMatch(/give the body as text and\/or html, or as markdown/);
  });

  it("refuses an unknown attachment id", async () => {
    const { error } = await invokeDirect(world, "send_email", { to: ["bob@example.com"], subject: "s", text: "x", attachments: [{ capability_artifact_id: "f".repeat(32), filename: "x.pdf" }] });
    expect(error).toMatch(/attachments\[0\]: no uploaded file with id/);
  });

  it("refuses attachments that together pass the per-message limit", async () => {
    const big = () => ({ artifact_id: store("big.bin", "application/octet-stream", Buffer.alloc(10 * 1024 * 1024, 1)) });
    const before = attemptsNow();
    const error = await fails(world.orchestrator, "send_email", { to: ["bob@example.com"], subject: "s", text: "x", attachments: [big(), big()] });
    expect(error).toMatch(/attachments: together they pass the 18 MiB limit per message/);
    expect(attemptsNow()).toBe(before);
  });

  it("refuses a single attachment over the per-file limit at upload", async () => {
    const error = await fails(world.orchestrator, "send_email", {
      to: ["bob@example.com"],
      subject: "s",
      text: "x",
      attachments: [{ artifact_id: store("huge.bin", "application/octet-stream", Buffer.alloc(15 * 1024 * 1024 + 1)) }],
    });
    expect(error).toMatch(/larger than .*15 MiB/);
  });
});

describe("send_email reports account and server trouble clearly, in bounded time", () => {
  it("names the credentials on a wrong password, without echoing it", async () => {
    const orchestrator = await world.withCredentials({ EMAIL_PASSWORD: "wrong-password-123" });
    const started = Date.now();
    const error = await fails(orchestrator, "send_email", { to: ["bob@example.com"], subject: "s", text: "x" });
    expect(error).toMatch(/SMTP login to smtp\.fastmail\.com:587 failed.*Check EMAIL_USERNAME and EMAIL_PASSWORD/);
    expect(error).not.toContain("wrong-password-123");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("explains a host the network allowlist does not name", async () => {
    const orchestrator = await world.withCredentials({ SMTP_HOST: "smtp.unlisted-provider.example" });
    const error = await fails(orchestrator, "send_email", { to: ["bob@example.com"], subject: "s", text: "x" });
    expect(error).toBe("the egress proxy refused smtp.unlisted-provider.example:587 (403): allow it in the manifest's network.hosts, or remove the network rule that denies it for this agent");
  });

  it("reports an unreachable server", async () => {
    world.proxy.map("smtp.gmail.com:587", "127.0.0.1:1"); // nothing listens on port 1
    const orchestrator = await world.withCredentials({ SMTP_HOST: "smtp.gmail.com" });
    const started = Date.now();
    const error = await fails(orchestrator, "send_email", { to: ["bob@example.com"], subject: "s", text: "x" });
    expect(error).toMatch(/the egress proxy could not reach smtp\.gmail\.com:587 \(502 inside the tunnel\)/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("refuses a server that does not offer STARTTLS (downgrade), before sending the password", async () => {
    const stripped = await startSmtpServer({ ca: world.ca, names: ["smtp.zoho.com"], users: { [USER]: PASSWORD }, security: "none" });
    try {
      world.proxy.map("smtp.zoho.com:587", `${stripped.host}:${stripped.port}`);
      const orchestrator = await world.withCredentials({ SMTP_HOST: "smtp.zoho.com" });
      const error = await fails(orchestrator, "send_email", { to: ["bob@example.com"], subject: "s", text: "x" });
      expect(error).toMatch(/smtp\.zoho\.com:587/);
      expect(error).toMatch(/STARTTLS|TLS/);
      expect(stripped.messages).toHaveLength(0);
      expect(stripped.authFailures).toBe(0);
    } finally {
      await stripped.close();
    }
  });

  it("refuses a STARTTLS certificate that is not for the configured host", async () => {
    world.proxy.map("smtp.mail.yahoo.com:587", `${world.smtp.host}:${world.smtp.port}`); // certificate names smtp.fastmail.com
    const before = world.smtp.messages.length;
    const orchestrator = await world.withCredentials({ SMTP_HOST: "smtp.mail.yahoo.com" });
    const error = await fails(orchestrator, "send_email", { to: ["bob@example.com"], subject: "s", text: "x" });
    expect(error).toMatch(/TLS with the SMTP server smtp\.mail\.yahoo\.com:587 failed.*(altnames|certificate)/);
    expect(world.smtp.messages.length).toBe(before);
  });

  it("refuses an implicit-TLS certificate that is not for the configured host", async () => {
    world.proxy.map("smtp.mail.yahoo.com:465", `${world.smtps.host}:${world.smtps.port}`);
    const orchestrator = await world.withCredentials({ SMTP_HOST: "smtp.mail.yahoo.com", SMTP_PORT: "465" });
    expect(await fails(orchestrator, "send_email", { to: ["bob@example.com"], subject: "s", text: "x" })).toMatch(/TLS handshake with smtp\.mail\.yahoo\.com:465 failed/);
  });

  it("asks for EMAIL_FROM_ADDRESS when the user name is not an address", async () => {
    const orchestrator = await world.withCredentials({ EMAIL_USERNAME: "alice" });
    expect(await fails(orchestrator, "send_email", { to: ["bob@example.com"], subject: "s", text: "x" })).toMatch(/set the credential EMAIL_FROM_ADDRESS/);
  });

  it("refuses a bad SMTP_SECURITY", async () => {
    const orchestrator = await world.withCredentials({ SMTP_SECURITY: "ssl3" });
    expect(await fails(orchestrator, "send_email", { to: ["bob@example.com"], subject: "s", text: "x" })).toMatch(/SMTP_SECURITY must be "starttls" or "tls"/);
  });

  it("never logs the password, addresses, subject or body", () => {
    const logs = world.proc.output();
    expect(logs).not.toContain(PASSWORD);
    expect(logs).not.toContain("Quarterly");
    expect(logs).not.toContain("Here is the report");
    expect(logs).not.toContain("bob@example.com");
    expect(CREDENTIALS.EMAIL_PASSWORD).toBe(PASSWORD);
  });
});
