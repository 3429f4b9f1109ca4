import type { TLSSocket } from "node:tls";
import { startTlsServer } from "../tls/local-servers.js";
import type { TestCa } from "../tls/test-ca.js";
import { beginAttack, manyLines, pour, type Attack, type AttackLog, type HostileServer } from "./hostile.js";

/** Options of {@link startHostileImapServer}. */
export interface HostileImapOptions {
  ca: TestCa;
  /** Names the certificate is issued for (the provider's IMAP host). */
  names: readonly string[];
  attack: Attack;
  /** When the attack starts: instead of the greeting, or as the answer to the first SELECT/EXAMINE, SEARCH or FETCH. Default fetch. */
  at?: "greeting" | "select" | "search" | "fetch";
}

/** A running hostile IMAP server (implicit TLS, as on 993). */
export type HostileImapServer = HostileServer;

/**
 * An IMAP server that behaves until `at`, then attacks (issue 10 item 3): a FETCH answered with a
 * 1,000,000,000-byte literal, an endless line, a response of a million tokens, a reply dripped a byte at a
 * time, or silence. Until then it speaks enough IMAP4rev1 for a real client to log in (any password),
 * list, select INBOX (one message, UID 1) and search. Pair it with the egress proxy double's mapping.
 */
export async function startHostileImapServer(options: HostileImapOptions): Promise<HostileImapServer> {
  const at = options.at ?? "fetch";
  const attacks: AttackLog[] = [];
  const server = await startTlsServer(options.ca.issue([...options.names]), (socket) => serve(socket));

  function attack(socket: TLSSocket, tag: string, normal: string) {
    const begun = beginAttack(socket, options.attack, normal, attacks);
    if (!begun) return;
    const [log, a] = begun;
    const untagged = at === "greeting" ? "* OK " : "* 1 FETCH (UID 1 BODY[HEADER] ";
    if (a.kind === "endless-line") return pour(socket, untagged, Number.POSITIVE_INFINITY, "", log);
    if (a.kind === "huge-literal") {
      const size = a.size ?? 1_000_000_000;
      return pour(socket, `* 1 FETCH (UID 1 BODY[HEADER] {${size}}\r\n`, size, `)\r\n${tag} OK done\r\n`, log);
    }
    // One response of many small tokens per line: each costs a parse-tree node in the client.
    const width = a.width ?? 64 * 1024;
    manyLines(socket, a.lines ?? 1_000, (i) => `* ${i + 1} FETCH (UID ${i + 1} FLAGS (${"\\X ".repeat(Math.floor(width / 3))}))`, `${tag} OK done\r\n`, log);
  }

  function serve(socket: TLSSocket) {
    socket.on("error", () => {});
    if (at === "greeting") return attack(socket, "*", "* OK [CAPABILITY IMAP4rev1] ready\r\n");
    socket.write("* OK [CAPABILITY IMAP4rev1] hostile IMAP ready\r\n");
    let pending = "";
    let attacked = false;
    socket.on("data", (data: Buffer) => {
      if (attacked) return;
      pending += data.toString("latin1");
      let eol: number;
      while (!attacked && (eol = pending.indexOf("\r\n")) >= 0) {
        const line = pending.slice(0, eol);
        pending = pending.slice(eol + 2);
        const [tag = "*", ...words] = line.split(" ");
        const command = (words[0] === "UID" ? words[1] : words[0])?.toUpperCase() ?? "";
        const reply = (text: string) => socket.write(text);
        const ok = (extra = "") => reply(`${extra}${tag} OK done\r\n`);
        const stage = command === "SELECT" || command === "EXAMINE" ? "select" : command === "SEARCH" ? "search" : command === "FETCH" ? "fetch" : undefined;
        const normal: Record<string, string> = {
          select: `* 1 EXISTS\r\n* 0 RECENT\r\n* OK [UIDVALIDITY 1] ok\r\n* OK [UIDNEXT 2] ok\r\n* FLAGS (\\Seen)\r\n${tag} OK [READ-ONLY] done\r\n`,
          search: `* SEARCH 1\r\n${tag} OK done\r\n`,
          fetch: `* 1 FETCH (UID 1 FLAGS (\\Seen) RFC822.SIZE 10)\r\n${tag} OK done\r\n`,
        };
        if (stage === at) {
          attacked = true;
          attack(socket, tag, normal[stage]!);
        } else if (stage) reply(normal[stage]!);
        else if (command === "CAPABILITY") ok("* CAPABILITY IMAP4rev1\r\n");
        else if (command === "LIST") ok('* LIST (\\HasNoChildren) "/" INBOX\r\n');
        else if (command === "LOGOUT") {
          ok("* BYE bye\r\n");
          socket.end();
        } else ok();
      }
    });
  }

  return {
    host: server.host,
    port: server.port,
    attacks,
    close: () => server.close(),
  };
}
