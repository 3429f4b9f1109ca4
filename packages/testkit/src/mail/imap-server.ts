import { spawn, type ChildProcess } from "node:child_process";
import { chown, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import tls from "node:tls";
import { freePort } from "../process/free-port.js";
import type { TestCa } from "../tls/test-ca.js";
import { composeMessage, type MessageSpec } from "./compose.js";
import { dovecotConfig, dovecotOAuth2Settings } from "./dovecot-config.js";
import { headerDate, maildirPath, writeMaildirMessage } from "./maildir.js";

/** One message to put into a mailbox before (or while) the server runs. */
export interface SeedMessage {
  /** Whose mailbox; default the first of `users`. */
  user?: string;
  /** `INBOX`, `Archive`, `Projects/2026`...; created when missing. Default INBOX. */
  mailbox?: string;
  /** A complete RFC 822 message, or its parts (composed with nodemailer's MailComposer). */
  message: Buffer | MessageSpec;
  /** IMAP system flags, e.g. `["\\Seen"]`. Default none (unseen). */
  flags?: readonly string[];
  /** INTERNALDATE; default the message's Date header. */
  internalDate?: Date;
}

/** Options of {@link startImapServer}. */
export interface ImapServerOptions {
  /** Issues the server's certificate. */
  ca: TestCa;
  /** Names the certificate is issued for: the production host name the client connects to. */
  names: readonly string[];
  /** Accepted logins, user name to password. */
  users: Record<string, string>;
  seed?: readonly SeedMessage[];
  /** Path of the dovecot binary. Default /usr/sbin/dovecot (Debian's dovecot-imapd). */
  dovecot?: string;
  /**
   * Also accepts SASL XOAUTH2 logins, checking each bearer token with this RFC 7662
   * introspection endpoint (Dovecot's oauth2 passdb; an OAuth2 provider double's `introspectionUrl`).
   */
  oauth2?: { introspectionUrl: string };
}

/** A running Dovecot; `close()` it in `afterAll`. */
export interface ImapTestServer {
  readonly host: string;
  /** Implicit TLS (as on 993). */
  readonly port: number;
  /** Plain greeting, STARTTLS required before login (as on 143). */
  readonly starttlsPort: number;
  /** Adds a message while the server runs (Dovecot picks it up on its next mailbox sync). */
  deliver(message: SeedMessage): Promise<void>;
  /** Dovecot's log so far, for failing tests. */
  log(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts a real IMAP server, Dovecot from Debian (`dovecot-imapd`), unprivileged on a loopback port
 * with a temporary configuration: implicit TLS with a certificate from `ca` for `names`, logins from
 * a passwd-file, Maildir++ mail in a temp directory seeded with `seed`. Messages get UIDs in seed
 * order per mailbox. When the tests run as root, Dovecot runs as `nobody`.
 *
 * @example
 * const imap = await startImapServer({ ca, names: ["imap.fastmail.com"], users: { alice: "pw" },
 *   seed: [{ mailbox: "INBOX", message: { from: "bob@example.com", to: "alice@example.com", subject: "Hi", text: "..." } }] });
 * proxy.map("imap.fastmail.com:993", `${imap.host}:${imap.port}`);
 */
export async function startImapServer(options: ImapServerOptions): Promise<ImapTestServer> {
  const userNames = Object.keys(options.users);
  if (userNames.length === 0) throw new Error("startImapServer: users must name at least one login");
  for (const [name, password] of Object.entries(options.users)) {
    if (/[:\s/]/.test(name) || /[:\r\n]/.test(password)) throw new Error(`startImapServer: user ${JSON.stringify(name)}: no ":", "/" or white space in logins`);
  }
  const root = await mkdtemp(join(tmpdir(), "selu-imap-"));
  const account = await runAccount();
  const port = await freePort();
  const starttlsPort = await freePort();
  const { cert, key } = options.ca.issue(options.names);
  await Promise.all(["run", "state", "mail", "home"].map((d) => mkdir(join(root, d))));
  await writeFile(join(root, "cert.pem"), cert);
  await writeFile(join(root, "key.pem"), key, { mode: 0o600 });
  await writeFile(
    join(root, "passwd"),
    Object.entries(options.users)
      .map(([u, p]) => `${u}:{PLAIN}${p}::::::\n`)
      .join(""),
  );
  if (options.oauth2) await writeFile(join(root, "oauth2.conf.ext"), dovecotOAuth2Settings(options.oauth2.introspectionUrl));
  await writeFile(join(root, "dovecot.conf"), dovecotConfig({ root, port, starttlsPort, ...account, ...(options.oauth2 ? { oauth2: options.oauth2 } : {}) }));

  const deliver = async (seed: SeedMessage) => {
    const user = seed.user ?? userNames[0]!;
    if (!(user in options.users)) throw new Error(`seed user ${JSON.stringify(user)} is not one of users`);
    const raw = Buffer.isBuffer(seed.message) ? seed.message : await composeMessage(seed.message);
    const dir = maildirPath(join(root, "mail", user), seed.mailbox ?? "INBOX");
    await writeMaildirMessage(dir, raw, seed.flags ?? [], seed.internalDate ?? headerDate(raw));
    if (account.chown) await chownTree(join(root, "mail"), account.uid, account.gid);
  };
  for (const seed of options.seed ?? []) await deliver(seed);
  if (account.chown) await chownTree(root, account.uid, account.gid);

  const child = spawn(options.dovecot ?? "/usr/sbin/dovecot", ["-F", "-c", join(root, "dovecot.conf")], {
    stdio: ["ignore", "pipe", "pipe"],
    ...(account.chown ? { uid: account.uid, gid: account.gid } : {}),
  });
  try {
    await new Promise<void>((resolve, reject) => child.once("spawn", resolve).once("error", reject));
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    const hint = (err as NodeJS.ErrnoException).code === "ENOENT" ? ": install Debian's dovecot-imapd (scripts/install-test-deps.sh)" : "";
    throw new Error(`Dovecot did not start: ${(err as Error).message}${hint}`);
  }
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const log = async () => output + (await readFile(join(root, "dovecot.log"), "utf8").catch(() => ""));
  try {
    await waitForGreeting(port, options.ca.certPem, options.names[0]!, child);
  } catch (err) {
    const text = await log();
    await stop(child, exited);
    await rm(root, { recursive: true, force: true });
    throw new Error(`Dovecot did not start: ${(err as Error).message}\n${text}`);
  }

  return {
    host: "127.0.0.1",
    port,
    starttlsPort,
    deliver,
    log,
    async close() {
      await stop(child, exited);
      await rm(root, { recursive: true, force: true });
    },
  };
}

interface RunAccount {
  user: string;
  group: string | undefined;
  uid: number;
  gid: number;
  /** Whether files must be handed to the account (we are root and Dovecot runs as nobody). */
  chown: boolean;
}

async function runAccount(): Promise<RunAccount> {
  const groups = await readFile("/etc/group", "utf8").catch(() => "");
  const groupName = (gid: number) =>
    groups
      .split("\n")
      .find((line) => line.split(":")[2] === String(gid))
      ?.split(":")[0];
  if (process.getuid?.() === 0) {
    // Dovecot refuses to serve mail as root; nobody exists everywhere.
    return { user: "nobody", group: groupName(65534), uid: 65534, gid: 65534, chown: true };
  }
  const me = userInfo();
  return { user: me.username, group: groupName(me.gid), uid: me.uid, gid: me.gid, chown: false };
}

async function chownTree(path: string, uid: number, gid: number): Promise<void> {
  await chown(path, uid, gid);
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) await chownTree(child, uid, gid);
    else await chown(child, uid, gid);
  }
}

/** Resolves once Dovecot answers with its "ready" greeting over verified TLS (within 10 s). */
async function waitForGreeting(port: number, ca: string, servername: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  let last = "no answer";
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`dovecot exited with code ${child.exitCode}`);
    const greeting = await new Promise<string>((resolve) => {
      const socket = tls.connect({ host: "127.0.0.1", port, ca, servername });
      let text = "";
      const done = (value: string) => (socket.destroy(), resolve(value));
      socket.setTimeout(1000, () => done(text || "timeout"));
      socket.on("data", (d: Buffer) => {
        text += d.toString();
        if (/ready\.\r?\n/.test(text)) done(text);
      });
      socket.on("error", (err) => done(err.message));
    });
    if (/ready\.\r?\n/.test(greeting)) return;
    last = greeting;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no IMAP greeting on port ${port} within 10 s (${last.trim()})`);
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}
