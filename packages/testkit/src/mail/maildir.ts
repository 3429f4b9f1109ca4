import { mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";

let counter = 0;

const FLAG_LETTERS: Record<string, string> = {
  "\\Draft": "D",
  "\\Flagged": "F",
  "\\Answered": "R",
  "\\Seen": "S",
  "\\Deleted": "T",
};

/**
 * The Maildir++ directory of `mailbox` under a user's mail root: INBOX is the root itself, and
 * `Work/Reports` is `.Work.Reports` (Dovecot's layout with "/" as the IMAP separator).
 */
export function maildirPath(userRoot: string, mailbox: string): string {
  if (mailbox.toUpperCase() === "INBOX") return userRoot;
  if (mailbox.includes(".") || mailbox.startsWith("/") || mailbox.endsWith("/")) {
    throw new Error(`seed mailbox ${JSON.stringify(mailbox)}: use "/" between levels and no "."`);
  }
  return join(userRoot, `.${mailbox.split("/").join(".")}`);
}

/**
 * Writes one message into a maildir's cur/ with its flags and `date` as mtime (Dovecot's
 * INTERNALDATE). File names start with an increasing time, so Dovecot assigns UIDs in write order.
 */
export async function writeMaildirMessage(dir: string, raw: Buffer, flags: readonly string[], date: Date): Promise<void> {
  for (const sub of ["cur", "new", "tmp"]) await mkdir(join(dir, sub), { recursive: true });
  const letters = flags.map((flag) => {
    const letter = FLAG_LETTERS[flag];
    if (!letter) throw new Error(`seed flag ${flag}: expected one of ${Object.keys(FLAG_LETTERS).join(", ")}`);
    return letter;
  });
  counter += 1;
  const seconds = 1_600_000_000 + counter;
  const name = `${seconds}.M${counter}P${process.pid}.selu-test,S=${raw.length}:2,${[...new Set(letters)].sort().join("")}`;
  const path = join(dir, "cur", name);
  await writeFile(path, raw);
  await utimes(path, date, date);
}

/** The Date header of a raw message, else now. */
export function headerDate(raw: Buffer): Date {
  const head = raw.subarray(0, Math.min(raw.length, 64 * 1024)).toString("latin1");
  const end = head.search(/\r?\n\r?\n/);
  const match = /^date:[ \t]*(.+(?:\r?\n[ \t].+)*)/im.exec(end >= 0 ? head.slice(0, end) : head);
  const parsed = match ? new Date(match[1]!.replace(/\r?\n[ \t]+/g, " ").trim()) : undefined;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : new Date();
}
