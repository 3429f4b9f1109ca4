import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { loadManifest } from "@selu-catalogue/manifest";
import { memoryLimit, sandboxCommand, type MemoryLimit } from "@selu-catalogue/testkit/container";
import { startHostileImapServer, startHostileSmtpServer, type Attack, type AttackLog } from "@selu-catalogue/testkit/mail";
import { Orchestrator, type ManifestView } from "@selu-catalogue/testkit/orchestrator";
import { startCapabilityProcess, type CapabilityProcess } from "@selu-catalogue/testkit/process";
import { startEgressProxy, type EgressProxy } from "@selu-catalogue/testkit/proxy";
import { createTestCa, type TestCa } from "@selu-catalogue/testkit/tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREDENTIALS, dir } from "./harness.js";

// Issue 10 item 3: a mail server that answers a fetch with a 1,000,000,000-byte literal or an endless
// line got email killed in 2–5 s (imapflow's defaults: 1 GiB literals and lines). The production
// entrypoint runs in the container sandbox under a memory cgroup of the manifest's max_memory_mb (the
// peak-RSS bound where none can be made), reaching hostile servers through the egress proxy double:
// each attack ends in a clear error, under the limit, and the process answers the next call.
const { manifest } = loadManifest(`${dir}/manifest.yaml`);
const limitMiB = manifest!.resources.max_memory_mb;
let ca: TestCa;
let caFile: string;
let proxy: EgressProxy;
let proc: CapabilityProcess;
let memory: MemoryLimit;
let orchestrator: Orchestrator;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  ca = createTestCa();
  caFile = await ca.writeCertFile();
  proxy = await startEgressProxy({ policy: manifest!.network, capability: "catalogue-email" });
  memory = memoryLimit(limitMiB, "email-hostile", () => proc?.child.pid);
  proc = await startCapabilityProcess(dir, {
    env: { ...proxy.env, NODE_EXTRA_CA_CERTS: caFile, LOG_LEVEL: "warn" },
    wrap: (command) => memory.wrap(sandboxCommand(command, { readOnly: [dirname(caFile)] })),
  });
  orchestrator = new Orchestrator({ credentials: { "catalogue-email": { ...CREDENTIALS, SMTP_PORT: "465" } } });
  await orchestrator.install(manifest as ManifestView, proc.address);
}, 60_000);
afterAll(async () => {
  await orchestrator?.close();
  await proc?.stop();
  memory?.close();
  for (const close of closers) await close();
  await proxy?.close();
  if (caFile) await rm(dirname(caFile), { recursive: true, force: true });
});

/** Points the provider's IMAP name at a new hostile server. */
async function hostileImap(attack: Attack, at?: "greeting" | "select" | "search" | "fetch") {
  const server = await startHostileImapServer({ ca, names: ["imap.fastmail.com"], attack, ...(at ? { at } : {}) });
  closers.push(() => server.close());
  proxy.map("imap.fastmail.com:993", `${server.host}:${server.port}`);
  return server;
}

async function hostileSmtp(attack: Exclude<Attack, { kind: "huge-literal" }>, at?: "greeting" | "ehlo" | "data") {
  const server = await startHostileSmtpServer({ ca, names: ["smtp.fastmail.com"], attack, ...(at ? { at } : {}) });
  closers.push(() => server.close());
  proxy.map("smtp.fastmail.com:465", `${server.host}:${server.port}`);
  return server;
}

/** The call fails with `error` within `withinMs`; the process is alive and under its limit; the attack's connection is closed. */
async function survives(tool: string, args: Record<string, unknown>, error: RegExp, attacks: readonly AttackLog[], withinMs = 20_000) {
  memory.resetPeak();
  const started = performance.now();
  const outcome = await orchestrator.call(`catalogue-email__${tool}`, args);
  const took = performance.now() - started;
  expect(outcome.ok ? JSON.stringify(outcome.result) : outcome.error).toMatch(error);
  expect(took).toBeLessThan(withinMs);
  console.info(`${expect.getState().currentTestName}: ${Math.round(took)} ms, peak ${memory.peakMiB()} MiB of ${limitMiB} (${memory.kind}), ${attacks[0]?.bytesSent ?? 0} bytes sent by the server`);
  expect(proc.child.exitCode).toBeNull();
  expect(memory.oomKills()).toBe(0);
  expect(memory.peakMiB()).toBeLessThan(limitMiB);
  await expect.poll(() => attacks.every((a) => a.clientClosed), { timeout: 5_000 }).toBe(true);
  // Still serving: a call that needs no server answers.
  const next = await orchestrator.call("catalogue-email__send_email", { to: [], subject: "x", text: "x" });
  expect(next.ok).toBe(false);
  expect(proc.child.exitCode).toBeNull();
}

const TOO_LARGE = /the IMAP server imap\.fastmail\.com:993 sent more than this capability reads at once \(.+\); it is misbehaving or not an IMAP server, try again later$/;

describe("a hostile IMAP server", () => {
  it("answering a fetch with a 1,000,000,000-byte literal gets a clear error, not an out-of-memory kill", async () => {
    const server = await hostileImap({ kind: "huge-literal", size: 1_000_000_000 });
    await survives("list_messages", {}, TOO_LARGE, server.attacks);
  }, 60_000);

  it("answering a fetch with an endless line gets a clear error", async () => {
    const server = await hostileImap({ kind: "endless-line" });
    await survives("list_messages", {}, TOO_LARGE, server.attacks);
  }, 60_000);

  it("greeting with an endless line gets a clear error", async () => {
    const server = await hostileImap({ kind: "endless-line" }, "greeting");
    await survives(
      "list_mailboxes",
      {},
      /the IMAP server imap\.fastmail\.com:993 sent more than this capability reads at once|the connection to the IMAP server imap\.fastmail\.com:993 was lost/,
      server.attacks,
    );
  }, 60_000);

  it("answering a search with a flood of tokens gets a clear error", async () => {
    const server = await hostileImap({ kind: "huge-reply", lines: 1, width: 6 * 1024 * 1024 }, "search");
    await survives("list_messages", {}, TOO_LARGE, server.attacks);
  }, 60_000);

  it("answering a fetch of one page with thousands of messages stops reading them", async () => {
    const server = await hostileImap({ kind: "huge-reply", lines: 20_000, width: 3_000 });
    await survives("list_messages", {}, /the IMAP server imap\.fastmail\.com:993 sent more messages than were asked for/, server.attacks);
  }, 60_000);

  it("that never greets is given up after the connect timeout", async () => {
    const server = await hostileImap({ kind: "silent" }, "greeting");
    await survives("list_mailboxes", {}, /did not answer in time/, server.attacks, 30_000);
  }, 60_000);
});

describe("a hostile SMTP server", () => {
  const mail = { to: ["bob@example.com"], subject: "Hello", text: "Hi Bob", save_to_sent: false };

  it("greeting with an endless line gets a clear error", async () => {
    const server = await hostileSmtp({ kind: "endless-line" });
    await survives("send_email", mail, /the SMTP server smtp\.fastmail\.com:465 sent a reply longer than/, server.attacks);
  }, 60_000);

  it("answering EHLO with a multi-line reply of 640 MB gets a clear error", async () => {
    const server = await hostileSmtp({ kind: "huge-reply", lines: 10_000, width: 64 * 1024 }, "ehlo");
    await survives("send_email", mail, /the SMTP server smtp\.fastmail\.com:465 sent a reply longer than/, server.attacks);
  }, 60_000);

  it("dripping its greeting a byte at a time is given up after the connect timeout", async () => {
    const server = await hostileSmtp({ kind: "slow-drip", everyMs: 1_000 });
    await survives("send_email", mail, /did not answer in time|sent a reply longer than|failed/, server.attacks, 30_000);
  }, 60_000);
});
