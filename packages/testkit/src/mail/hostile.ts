import type { Socket } from "node:net";

/**
 * What a hostile mail server does instead of answering (issue 10 item 3), shared by the IMAP and SMTP
 * doubles: bytes without end at full speed (respecting the client's flow control, so the test's own
 * memory stays flat), a reply dripped a byte at a time, or silence.
 */
export type Attack =
  /** A line that never ends: `prefix` then filler bytes, no CRLF, until the client hangs up. */
  | { kind: "endless-line" }
  /** IMAP: a literal announced as `size` bytes (default 1,000,000,000), then filler streamed for it. */
  | { kind: "huge-literal"; size?: number }
  /** A reply of `lines` lines (SMTP continuation lines, IMAP untagged lines), each `width` bytes. */
  | { kind: "huge-reply"; lines?: number; width?: number }
  /** The normal reply, one byte every `everyMs` (default 500), each byte resetting idle timers. */
  | { kind: "slow-drip"; everyMs?: number }
  /** Nothing at all: the connection stays open and silent. */
  | { kind: "silent" };

/** Bytes sent by an attack so far, and whether the client hung up. */
export interface AttackLog {
  bytesSent: number;
  clientClosed: boolean;
}

/** A running hostile server (implicit TLS): where it listens and what each attack did. */
export interface HostileServer {
  readonly host: string;
  readonly port: number;
  /** What the attack sent and whether the client hung up, per connection that reached the attack. */
  readonly attacks: readonly AttackLog[];
  close(): Promise<void>;
}

/**
 * Starts an attack on `socket`, logged in `attacks`, and carries out the kinds every protocol shares:
 * silence, or `normal` dripped a byte at a time. Returns undefined when the attack is already under
 * way, else the log and the attack, one of the kinds the caller's protocol carries out itself.
 */
export function beginAttack<A extends Attack>(socket: Socket, attack: A, normal: string, attacks: AttackLog[]): [AttackLog, Exclude<A, { kind: "silent" | "slow-drip" }>] | undefined {
  const log: AttackLog = { bytesSent: 0, clientClosed: false };
  attacks.push(log);
  socket.once("close", () => (log.clientClosed = true));
  if (attack.kind === "silent") return undefined;
  if (attack.kind === "slow-drip") return void drip(socket, normal, attack.everyMs ?? 500, log);
  return [log, attack as Exclude<A, { kind: "silent" | "slow-drip" }>];
}

const FILLER = Buffer.alloc(64 * 1024, "x");

/**
 * Writes `prefix`, then `total` filler bytes (Infinity: until the client closes), as fast as the client
 * reads, then `suffix`.
 */
export function pour(socket: Socket, prefix: string, total: number, suffix: string, log: AttackLog): void {
  let left = total;
  const write = (data: Buffer | string) => {
    log.bytesSent += Buffer.byteLength(data);
    return socket.write(data);
  };
  const pump = () => {
    while (!socket.destroyed && left > 0) {
      const piece = left >= FILLER.length ? FILLER : FILLER.subarray(0, left);
      left -= piece.length;
      if (!write(piece)) return void socket.once("drain", pump);
    }
    if (!socket.destroyed && left <= 0 && suffix) write(suffix);
  };
  write(prefix);
  pump();
}

/** Writes `text` one byte every `everyMs`, until it is all sent or the client closes. */
export function drip(socket: Socket, text: string, everyMs: number, log: AttackLog): void {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || at >= text.length) return clearInterval(timer);
    socket.write(text[at++]!);
    log.bytesSent += 1;
  }, everyMs);
  socket.once("close", () => clearInterval(timer));
}

/** A reply of `lines` lines of `width` bytes: `line(i)` gives each (without CRLF), streamed with flow control. */
export function manyLines(socket: Socket, lines: number, line: (i: number) => string, last: string, log: AttackLog): void {
  let i = 0;
  const pump = () => {
    while (!socket.destroyed && i < lines) {
      const text = `${line(i++)}\r\n`;
      log.bytesSent += text.length;
      if (!socket.write(text)) return void socket.once("drain", pump);
    }
    if (!socket.destroyed && i >= lines) {
      socket.write(last);
      log.bytesSent += last.length;
    }
  };
  pump();
}
