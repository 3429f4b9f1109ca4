import { once } from "node:events";
import net from "node:net";
import { startTlsServer, type LocalServer } from "@selu-catalogue/testkit/tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREDENTIALS, invokeDirect, startMailWorld, type MailWorld } from "./harness.js";

/** A server that accepts connections and never says a word; records when each connection closes. */
interface Stall {
  port: number;
  accepted: number;
  closedAt: number[];
  close(): Promise<void>;
}

async function startPlainStall(): Promise<Stall> {
  const sockets = new Set<net.Socket>();
  const stall: Stall = { port: 0, accepted: 0, closedAt: [], close: async () => {} };
  const server = net.createServer((socket) => {
    stall.accepted += 1;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.once("close", () => stall.closedAt.push(Date.now()));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  stall.port = (server.address() as net.AddressInfo).port;
  stall.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  };
  return stall;
}

let world: MailWorld;
let smtpStall: Stall;
let imapStall: LocalServer;
const imapClosedAt: number[] = [];

beforeAll(async () => {
  world = await startMailWorld();
  smtpStall = await startPlainStall();
  // TLS completes (certificate valid for the name), then no IMAP greeting ever comes.
  imapStall = await startTlsServer(world.ca.issue(["imap.mail.me.com"]), (socket) => {
    socket.on("error", () => {});
    socket.once("close", () => imapClosedAt.push(Date.now()));
  });
  world.proxy.map("smtp.mail.me.com:587", `127.0.0.1:${smtpStall.port}`);
  world.proxy.map("imap.mail.me.com:993", `127.0.0.1:${imapStall.port}`);
}, 30_000);
afterAll(async () => {
  await smtpStall?.close();
  await imapStall?.close();
  await world?.close();
});

describe("cancellation", () => {
  it("closes the SMTP connection when the caller gives up", async () => {
    const deadline = Date.now() + 1500;
    await expect(
      invokeDirect(world, "send_email", { to: ["bob@example.com"], subject: "s", text: "x" }, { deadlineMs: 1500, config: { ...CREDENTIALS, SMTP_HOST: "smtp.mail.me.com" } }),
    ).rejects.toThrow(/Timeout expired/); // Selu sends no grpc-timeout: its client cancels when its timer fires
    await expect.poll(() => smtpStall.closedAt.length, { timeout: 5000 }).toBe(1);
    expect(smtpStall.accepted).toBe(1);
    expect(smtpStall.closedAt[0]! - deadline).toBeLessThan(2000);
  });

  it("closes the IMAP connection when the caller gives up", async () => {
    const deadline = Date.now() + 1500;
    await expect(invokeDirect(world, "list_mailboxes", {}, { deadlineMs: 1500, config: { ...CREDENTIALS, IMAP_HOST: "imap.mail.me.com" } })).rejects.toThrow(/Timeout expired/); // Selu sends no grpc-timeout: its client cancels when its timer fires
    await expect.poll(() => imapClosedAt.length, { timeout: 5000 }).toBe(1);
    expect(imapClosedAt[0]! - deadline).toBeLessThan(2000);
  });

  it("keeps serving other calls afterwards", async () => {
    const { error, result } = await invokeDirect(world, "send_email", { to: ["bob@example.com"], subject: "after cancel", text: "x" });
    expect(error).toBe("");
    expect(result).toMatchObject({ accepted: ["bob@example.com"] });
    expect(world.proc.output()).not.toMatch(/uncaught|unhandled/i);
  });
});
