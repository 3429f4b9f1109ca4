import { randomBytes } from "node:crypto";
import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, USER, fails, invokeDirect, ok, startMailWorld, type MailWorld } from "./harness.js";

const invoicePdf = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(200_000)]);
const photo = randomBytes(50_000);
const latin1Notes = Buffer.from("Grüße aus Köln\n", "latin1");
const day = (d: string) => new Date(`${d}T10:00:00Z`);

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld([
    {
      message: {
        from: "Shop <billing@shop.example>",
        to: USER,
        subject: "Invoice 2026-001",
        text: "Your invoice is attached.",
        date: day("2026-01-10"),
        attachments: [
          { filename: "invoice.pdf", content: invoicePdf, contentType: "application/pdf" },
          { filename: "notes.txt", content: latin1Notes, contentType: "text/plain; charset=iso-8859-1" },
        ],
      },
      flags: ["\\Seen"],
    },
    { message: { from: "Bob <bob@example.com>", to: USER, subject: 'He said "hi" \\o/', text: "quotes and a backslash", date: day("2026-02-01") } },
    {
      message: {
        from: "Jürgen <juergen@example.de>",
        to: USER,
        subject: "Grüße aus München",
        html: '<h1>Hallo</h1><p>Viele <b>Grüße</b> <a href="https://example.de/x">hier</a></p>',
        date: day("2026-03-05"),
      },
    },
    {
      message: {
        from: "Carol <carol@example.com>",
        to: USER,
        cc: "dave@example.com",
        subject: "Holiday photos",
        text: "See the photo.",
        date: day("2026-03-20"),
        attachments: [{ filename: "beach.jpg", content: photo, contentType: "image/jpeg" }],
      },
    },
    {
      mailbox: "Archive",
      message: {
        from: "Old <old@example.com>",
        to: USER,
        subject: "Archived invoice",
        text: "from last year",
        date: day("2025-06-01"),
        attachments: [{ filename: "old.pdf", content: Buffer.from("%PDF-old"), contentType: "application/pdf" }],
      },
    },
    { mailbox: "Projects/2026", message: { from: "pm@example.com", to: USER, subject: "Kickoff", text: "nested mailbox", date: day("2026-01-02") } },
  ]);
}, 30_000);
afterAll(() => world?.close());

const call = (tool: string, args: Record<string, unknown>) => ok(world.orchestrator, tool, args);

describe("list_mailboxes", () => {
  it("lists every selectable mailbox with counts and special use", async () => {
    const { mailboxes } = await call("list_mailboxes", {});
    const byPath = Object.fromEntries(mailboxes.map((m: { path: string }) => [m.path, m]));
    expect(byPath.INBOX).toMatchObject({ messages: 4, unseen: 3 });
    expect(byPath.Archive).toMatchObject({ special_use: "\\Archive", messages: 1 });
    expect(byPath.Sent).toMatchObject({ special_use: "\\Sent" });
    expect(byPath["Projects/2026"]).toMatchObject({ messages: 1 });
    expect(byPath.Projects).toBeUndefined(); // \Noselect parent
  });
});

describe("list_messages", () => {
  it("pages newest first with uid, from, subject, flags and attachment count", async () => {
    const first = await call("list_messages", { limit: 2 });
    expect(first).toMatchObject({ mailbox: "INBOX", total: 4, offset: 0, next_offset: 2 });
    expect(first.messages.map((m: { subject: string }) => m.subject)).toEqual(["Holiday photos", "Grüße aus München"]);
    expect(first.messages[0]).toMatchObject({ from: "Carol <carol@example.com>", to: [USER], seen: false, attachments: 1, date: "2026-03-20T10:00:00.000Z" });
    const second = await call("list_messages", { limit: 2, offset: 2 });
    expect(second.messages.map((m: { subject: string }) => m.subject)).toEqual(['He said "hi" \\o/', "Invoice 2026-001"]);
    expect(second.next_offset).toBeNull();
    expect(second.messages[1]).toMatchObject({ seen: true, attachments: 2 });
  });

  it("filters unseen and by received date", async () => {
    const unseen = await call("list_messages", { unseen_only: true });
    expect(unseen.total).toBe(3);
    const march = await call("list_messages", { since: "2026-03-01", before: "2026-03-10" });
    expect(march.messages.map((m: { subject: string }) => m.subject)).toEqual(["Grüße aus München"]);
  });

  it("keeps results compact for mail to many recipients with a very long subject", async () => {
    const to = Array.from({ length: 40 }, (_, i) => `member${i}@list.example`);
    await world.imap.deliver({ mailbox: "Projects/2026", message: { from: "list@list.example", to, subject: `Digest ${"x".repeat(900)}`, text: "digest" } });
    const page = await call("list_messages", { mailbox: "Projects/2026", limit: 1 });
    expect(page.messages[0].to).toEqual([...to.slice(0, 5), "… and 35 more"]);
    expect(page.messages[0].subject).toHaveLength(200);
    const message = await call("get_message", { mailbox: "Projects/2026", uid: page.messages[0].uid });
    expect(message.to).toHaveLength(40);
    await call("move_messages", { mailbox: "Projects/2026", uids: [page.messages[0].uid], destination: "Trash" });
  });

  it("reads any mailbox, not only INBOX", async () => {
    const nested = await call("list_messages", { mailbox: "Projects/2026" });
    expect(nested.messages[0]).toMatchObject({ subject: "Kickoff", uid: 1 });
  });

  it("refuses an unknown mailbox, a reversed date range and an impossible date", async () => {
    expect(await fails(world.orchestrator, "list_messages", { mailbox: "Nope" })).toMatch(/no such mailbox.*list_mailboxes shows the mailbox names/);
    expect(await fails(world.orchestrator, "list_messages", { since: "2026-03-10", before: "2026-03-01" })).toMatch(/before \(2026-03-01\) must be a later day than since/);
    expect(await fails(world.orchestrator, "search_messages", { subject: "x", since: "2026-03-01", before: "2026-03-01" })).toMatch(/before \(2026-03-01\) must be a later day than since/);
    expect(await fails(world.orchestrator, "list_messages", { since: "2026-02-30" })).toMatch(/since: is not a real calendar date/);
  });
});

describe("search_messages", () => {
  const subjects = (page: Record<string, any>) => page.messages.map((m: { subject: string }) => m.subject);

  it("matches from, to, subject, text and dates together", async () => {
    expect(subjects(await call("search_messages", { from: "carol" }))).toEqual(["Holiday photos"]);
    expect(subjects(await call("search_messages", { subject: "invoice" }))).toEqual(["Invoice 2026-001"]);
    expect(subjects(await call("search_messages", { text: "backslash" }))).toEqual(['He said "hi" \\o/']);
    expect(subjects(await call("search_messages", { cc: "dave@example.com" }))).toEqual(["Holiday photos"]);
    expect(subjects(await call("search_messages", { to: USER, since: "2026-03-01" }))).toEqual(["Holiday photos", "Grüße aus München"]);
    expect(subjects(await call("search_messages", { mailbox: "Archive", subject: "invoice" }))).toEqual(["Archived invoice"]);
  });

  it("sends quotes and backslashes as data: they match literally and cannot change the query", async () => {
    expect(subjects(await call("search_messages", { subject: 'said "hi" \\o/' }))).toEqual(['He said "hi" \\o/']);
    // An injection attempt would widen the search to everything if spliced into the command.
    expect((await call("search_messages", { subject: 'x" OR ALL "' })).total).toBe(0);
    expect((await call("search_messages", { from: "x) (ALL" })).total).toBe(0);
  });

  it('searches every mailbox but Trash, Junk and Drafts with mailbox "*", each hit naming its mailbox', async () => {
    await world.imap.deliver({ mailbox: "Trash", message: { from: "x@example.com", to: USER, subject: "Deleted invoice", text: "gone" } });
    const all = await call("search_messages", { mailbox: "*", subject: "invoice" });
    expect(all).toMatchObject({ mailbox: "*", total: 2, next_offset: null });
    expect(all.messages.map((m: { mailbox: string; subject: string }) => [m.mailbox, m.subject])).toEqual([
      ["INBOX", "Invoice 2026-001"],
      ["Archive", "Archived invoice"],
    ]);
    const second = await call("search_messages", { mailbox: "*", subject: "invoice", limit: 1, offset: 1 });
    expect(second.messages.map((m: { mailbox: string }) => m.mailbox)).toEqual(["Archive"]);
    const hit = second.messages[0];
    expect((await call("get_message", { mailbox: hit.mailbox, uid: hit.uid })).subject).toBe("Archived invoice");
  });

  it("searches non-ASCII text", async () => {
    expect(subjects(await call("search_messages", { subject: "Grüße" }))).toEqual(["Grüße aus München"]);
  });

  it("refuses CR/LF in a search term", async () => {
    expect(await fails(world.orchestrator, "search_messages", { subject: "a\r\nb LOGOUT" })).toMatch(/subject: must be one line/);
  });
});

describe("get_message and get_attachment", () => {
  const uidOf = async (subject: string, mailbox = "INBOX") => (await call("search_messages", { mailbox, subject })).messages[0].uid as number;

  it("returns headers, the text body and attachments with ids, without marking the message read", async () => {
    const uid = await uidOf("Holiday photos");
    const message = await call("get_message", { uid });
    expect(message).toMatchObject({
      mailbox: "INBOX",
      uid,
      from: "Carol <carol@example.com>",
      to: [USER],
      cc: ["dave@example.com"],
      subject: "Holiday photos",
      seen: false,
      body_format: "text",
      body_truncated: false,
    });
    expect(message.body.trim()).toBe("See the photo.");
    expect(message.message_id).toMatch(/^<.+>$/);
    expect(message.attachments).toEqual([{ attachment_id: "2", filename: "beach.jpg", mime_type: "image/jpeg", size_bytes: expect.any(Number), inline: false }]);
    expect(Math.abs(message.attachments[0].size_bytes - photo.length)).toBeLessThan(photo.length * 0.02);
    expect((await call("get_message", { uid })).seen).toBe(false);
  });

  it("turns an HTML-only body into text", async () => {
    const message = await call("get_message", { uid: await uidOf("Grüße aus München") });
    expect(message.body_format).toBe("html");
    expect(message.body).toMatch(/HALLO/i);
    expect(message.body).toContain("Viele Grüße hier [https://example.de/x]");
  });

  it("cuts a body of 40,000 non-ASCII characters to fit Selu's 49,152-byte result bound, never inside a character", async () => {
    await world.imap.deliver({ message: { from: "news@example.com", to: USER, subject: "Длинное письмо", text: "Привет мир ".repeat(3_700) } });
    const uid = await uidOf("Длинное письмо");
    const { error, resultJson } = await invokeDirect(world, "get_message", { uid, max_body_chars: 40_000 });
    expect(error).toBe("");
    expect(resultJson.byteLength).toBeLessThanOrEqual(49_152);
    const result = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(resultJson));
    expect(result.body_truncated).toBe(true);
    expect(result.body).toMatch(/^(Привет мир )+[^\n]*\n\[… shortened to fit the result limit\]$/);
    await call("move_messages", { uids: [uid], destination: "Trash" });
  });

  it("cuts a long body at max_body_chars and says so", async () => {
    await world.imap.deliver({ message: { from: "news@example.com", to: USER, subject: "Long newsletter", text: "word ".repeat(6_000) } });
    const uid = await uidOf("Long newsletter");
    const cut = await call("get_message", { uid, max_body_chars: 100 });
    expect(cut).toMatchObject({ body: "word ".repeat(20), body_truncated: true });
    const whole = await call("get_message", { uid, max_body_chars: 40_000 });
    expect(whole.body_truncated).toBe(false);
    expect(whole.body.trim().length).toBe(5 * 6_000 - 1);
    await call("move_messages", { uids: [uid], destination: "Trash" });
  });

  it("hands attachments on as artifacts, byte for byte (binary and a Latin-1 text file)", async () => {
    const uid = await uidOf("Invoice 2026-001");
    const { attachments } = await call("get_message", { uid });
    expect(attachments.map((a: { filename: string }) => a.filename)).toEqual(["invoice.pdf", "notes.txt"]);
    const pdf = await call("get_attachment", { uid, attachment_id: attachments[0].attachment_id });
    expect(pdf.artifact).toMatchObject({ filename: "invoice.pdf", mime_type: "application/pdf", size_bytes: invoicePdf.length });
    expect(world.orchestrator.vault.get(pdf.artifact.artifact_id)!.bytes.equals(invoicePdf)).toBe(true);
    const notes = await call("get_attachment", { uid, attachment_id: attachments[1].attachment_id });
    expect(world.orchestrator.vault.get(notes.artifact.artifact_id)!.bytes.equals(latin1Notes)).toBe(true);
  });

  it("chains search → get_message → get_attachment → send_email, and the forwarded file arrives unchanged", async () => {
    const hit = (await call("search_messages", { mailbox: "Archive", text: "last year" })).messages[0];
    const message = await call("get_message", { mailbox: "Archive", uid: hit.uid });
    const file = await call("get_attachment", { mailbox: "Archive", uid: hit.uid, attachment_id: message.attachments[0].attachment_id });
    const before = world.smtp.messages.length;
    await call("send_email", { to: ["bob@example.com"], subject: "Fwd: old invoice", text: "see attached", attachments: [{ artifact_id: file.artifact.artifact_id }] });
    const [sent] = (await world.smtp.waitForMessages(before + 1)).slice(before);
    expect(sent!.attachments[0]).toMatchObject({ filename: "old.pdf", contentType: "application/pdf" });
    expect(sent!.attachments[0]!.content.equals(Buffer.from("%PDF-old"))).toBe(true);
  });

  it("refuses to fetch an attachment over the per-file limit, naming the limit", async () => {
    await world.imap.deliver({
      message: {
        from: "big@example.com",
        to: USER,
        subject: "Huge scan",
        text: "scan attached",
        attachments: [{ filename: "scan.tiff", content: Buffer.alloc(16 * 1024 * 1024, 7), contentType: "image/tiff" }],
      },
    });
    const uid = await uidOf("Huge scan");
    const { attachments } = await call("get_message", { uid });
    expect(await fails(world.orchestrator, "get_attachment", { uid, attachment_id: attachments[0].attachment_id })).toMatch(/scan\.tiff is about 16\.0 MiB, over the 15 MiB limit/);
    await call("move_messages", { uids: [uid], destination: "Trash" });
  });

  it("names the known attachments when the id is unknown", async () => {
    const uid = await uidOf("Invoice 2026-001");
    expect(await fails(world.orchestrator, "get_attachment", { uid, attachment_id: "7" })).toMatch(/has no attachment "7"; its attachments are: 2 \(invoice\.pdf\), 3 \(notes\.txt\)/);
    expect(await fails(world.orchestrator, "get_attachment", { uid, attachment_id: "../1" })).toMatch(/attachment_id: expected an attachment_id from get_message/);
  });

  it("explains a uid that is not in the mailbox", async () => {
    expect(await fails(world.orchestrator, "get_message", { uid: 9999 })).toMatch(/mailbox "INBOX" has no message with uid 9999/);
  });
});

describe("mark_messages and move_messages", () => {
  it("marks read and flagged, and reports uids it did not find", async () => {
    const uid = (await call("search_messages", { subject: "quotes" })).messages[0]?.uid ?? (await call("search_messages", { text: "backslash" })).messages[0].uid;
    const result = await call("mark_messages", { uids: [uid, 4242], seen: true, flagged: true });
    expect(result).toMatchObject({ updated: [uid], not_found: [4242], added: ["\\Seen", "\\Flagged"] });
    expect(await call("get_message", { uid })).toMatchObject({ seen: true, flagged: true });
    await call("mark_messages", { uids: [uid], seen: false });
    expect(await call("get_message", { uid })).toMatchObject({ seen: false, flagged: true });
    expect(await fails(world.orchestrator, "mark_messages", { uids: [uid] })).toMatch(/give at least one of them/);
  });

  it("moves messages and maps their new uids", async () => {
    await world.imap.deliver({ message: { from: "spam@example.net", to: USER, subject: "Win a prize", text: "!!!" } });
    const uid = (await call("search_messages", { subject: "Win a prize" })).messages[0].uid;
    const result = await call("move_messages", { uids: [uid], destination: "Junk" });
    expect(result).toMatchObject({ mailbox: "INBOX", destination: "Junk", moved: [{ uid, new_uid: 1 }], not_found: [] });
    expect((await call("search_messages", { subject: "Win a prize" })).total).toBe(0);
    expect((await call("list_messages", { mailbox: "Junk" })).messages[0]).toMatchObject({ uid: 1, subject: "Win a prize" });
    expect(await fails(world.orchestrator, "move_messages", { uids: [1], mailbox: "Junk", destination: "Nowhere" })).toMatch(/destination: no mailbox named "Nowhere"/);
  });
});

describe("IMAP trouble", () => {
  it("answers concurrent calls, each on its own connection (before any failed login: Dovecot delays logins from an address after one)", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? call("list_messages", { limit: 1 }) : call("list_mailboxes", {}))));
    expect(results).toHaveLength(8);
    expect(results.filter((r) => "total" in r).every((r) => r.total >= 4)).toBe(true);
  });

  it("reports a wrong password clearly and quickly", async () => {
    const orchestrator = await world.withCredentials({ EMAIL_PASSWORD: "nope-nope" });
    const started = Date.now();
    const error = await fails(orchestrator, "list_mailboxes", {});
    expect(error).toMatch(/IMAP login to imap\.fastmail\.com:993 failed.*Check EMAIL_USERNAME and EMAIL_PASSWORD/);
    expect(error).not.toContain("nope-nope");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("refuses a server whose certificate is not for the configured name", async () => {
    world.proxy.map("imap.gmail.com:993", `${world.imap.host}:${world.imap.port}`); // Dovecot's certificate names imap.fastmail.com
    const orchestrator = await world.withCredentials({ IMAP_HOST: "imap.gmail.com" });
    expect(await fails(orchestrator, "list_mailboxes", {})).toMatch(/TLS handshake with imap\.gmail\.com:993 failed/);
  });

  it("never logs credentials, addresses, subjects, bodies or search terms", () => {
    const logs = world.proc.output();
    for (const secret of [PASSWORD, "billing@shop.example", "Invoice 2026-001", "Your invoice", "Grüße", "backslash", "Win a prize"]) {
      expect(logs).not.toContain(secret);
    }
  });

  it("says which credential is missing", async () => {
    const { error } = await invokeDirect(world, "list_mailboxes", {}, { config: { EMAIL_USERNAME: USER, EMAIL_PASSWORD: "x" } });
    expect(error).toMatch(/missing credential IMAP_HOST/);
  });
});

describe("IMAP with STARTTLS (port 143)", () => {
  it("reads over STARTTLS when IMAP_PORT is 143, through the egress proxy, with the certificate verified", async () => {
    world.proxy.map("imap.fastmail.com:143", `${world.imap.host}:${world.imap.starttlsPort}`);
    const orchestrator = await world.withCredentials({ IMAP_PORT: "143" });
    const { mailboxes } = await ok(orchestrator, "list_mailboxes", {});
    expect(mailboxes.find((m: { path: string }) => m.path === "INBOX")).toMatchObject({ messages: 4 });
  });

  it("refuses a server that does not offer STARTTLS, before sending the password", async () => {
    const seen: string[] = [];
    const plain = createServer((socket) => {
      socket.write("* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] plain only\r\n");
      socket.on("data", (data: Buffer) => {
        for (const line of data.toString("latin1").split("\r\n").filter(Boolean)) {
          seen.push(line);
          const tag = line.split(" ")[0];
          if (/ CAPABILITY$/i.test(line)) socket.write(`* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n${tag} OK done\r\n`);
          else socket.write(`${tag} OK done\r\n`);
        }
      });
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    try {
      world.proxy.map("imap.mailbox.org:143", `127.0.0.1:${(plain.address() as AddressInfo).port}`);
      const orchestrator = await world.withCredentials({ IMAP_HOST: "imap.mailbox.org", IMAP_PORT: "143" });
      const error = await fails(orchestrator, "list_mailboxes", {});
      expect(error).toMatch(/^could not secure the connection to the IMAP server imap\.mailbox\.org:143 with STARTTLS .*the password was not sent/);
      expect(seen.join("\n")).not.toMatch(/LOGIN|AUTHENTICATE/i);
      expect(seen.join("\n")).not.toContain(PASSWORD);
    } finally {
      plain.close();
    }
  });

  it("refuses an IMAP_SECURITY other than tls or starttls", async () => {
    const orchestrator = await world.withCredentials({ IMAP_SECURITY: "none" });
    expect(await fails(orchestrator, "list_mailboxes", {})).toMatch(/IMAP_SECURITY must be "starttls" or "tls"/);
  });
});

describe("hostile mail", () => {
  it("reads an HTML-only message nested 400,000 levels deep without harm, and keeps serving", async () => {
    await world.imap.deliver({ mailbox: "Hostile", message: { from: "x@example.com", to: USER, subject: "nested", html: `${"<div>".repeat(400_000)}` } });
    const page = await call("list_messages", { mailbox: "Hostile" });
    expect(page.total).toBe(1);
    const message = await call("get_message", { mailbox: "Hostile", uid: page.messages[0].uid });
    expect(message).toMatchObject({ subject: "nested", body_format: "html" });
    expect((await call("list_mailboxes", {})).mailboxes.length).toBeGreaterThan(0);
  });
});
