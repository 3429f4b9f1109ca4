import type { TLSSocket } from "node:tls";
import { startTlsServer } from "../tls/local-servers.js";
import type { TestCa } from "../tls/test-ca.js";
import { beginAttack, manyLines, pour, type Attack, type AttackLog, type HostileServer } from "./hostile.js";

/** Options of {@link startHostileSmtpServer}. */
export interface HostileSmtpOptions {
  ca: TestCa;
  /** Names the certificate is issued for (the provider's SMTP host). */
  names: readonly string[];
  attack: Exclude<Attack, { kind: "huge-literal" }>;
  /** Which reply is the attack: the greeting, the answer to EHLO, or the answer to the end of DATA. Default greeting. */
  at?: "greeting" | "ehlo" | "data";
}

/** A running hostile SMTP server (implicit TLS, as on 465). */
export type HostileSmtpServer = HostileServer;

/**
 * An SMTP server that behaves until `at`, then attacks (issue 10 item 3): a reply line without end, a
 * multi-line reply of thousands of 64 KiB lines, a reply dripped a byte at a time, or silence. Until then
 * it accepts any login, sender and recipient. Pair it with the egress proxy double's mapping.
 */
export async function startHostileSmtpServer(options: HostileSmtpOptions): Promise<HostileSmtpServer> {
  const at = options.at ?? "greeting";
  const attacks: AttackLog[] = [];
  const server = await startTlsServer(options.ca.issue([...options.names]), (socket) => serve(socket));

  function attack(socket: TLSSocket, code: number, normal: string) {
    const begun = beginAttack(socket, options.attack, normal, attacks);
    if (!begun) return;
    const [log, a] = begun;
    if (a.kind === "endless-line") return pour(socket, `${code} `, Number.POSITIVE_INFINITY, "", log);
    const width = a.width ?? 64 * 1024;
    manyLines(socket, a.lines ?? 10_000, () => `${code}-${"x".repeat(width)}`, `${code} ok\r\n`, log);
  }

  function serve(socket: TLSSocket) {
    socket.on("error", () => {});
    const greeting = "220 smtp.hostile.test ESMTP\r\n";
    if (at === "greeting") return attack(socket, 220, greeting);
    socket.write(greeting);
    let pending = "";
    let inData = false;
    let attacked = false;
    socket.on("data", (data: Buffer) => {
      if (attacked) return;
      pending += data.toString("latin1");
      let eol: number;
      while (!attacked && (eol = pending.indexOf("\r\n")) >= 0) {
        const line = pending.slice(0, eol);
        pending = pending.slice(eol + 2);
        if (inData) {
          if (line !== ".") continue;
          inData = false;
          if (at === "data") {
            attacked = true;
            attack(socket, 250, "250 2.0.0 queued\r\n");
          } else socket.write("250 2.0.0 queued\r\n");
          continue;
        }
        const verb = line.split(" ")[0]!.toUpperCase();
        if (verb === "EHLO") {
          const normal = "250-smtp.hostile.test\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n";
          if (at === "ehlo") {
            attacked = true;
            attack(socket, 250, normal);
          } else socket.write(normal);
        } else if (verb === "AUTH") socket.write("235 2.7.0 ok\r\n");
        else if (verb === "DATA") {
          inData = true;
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") {
          socket.end("221 bye\r\n");
        } else socket.write("250 ok\r\n");
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
