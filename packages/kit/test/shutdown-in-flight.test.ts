// Issue 10, item 6: SIGTERM with many calls in flight, some of them arriving after the grace period, in a
// real process. A handler that fails after its call was answered used to be an unhandled rejection that
// killed the process, and answers still on their way were dropped when the server was forced down.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { credentials, type ServiceError } from "@grpc/grpc-js";
import { CapabilityClient } from "@selu-catalogue/proto";
import { describe, expect, it } from "vitest";
import { invoke } from "./fixtures/client.ts";

const SHUTTING_DOWN = "render was stopped: the capability is shutting down; try again";

async function run(): Promise<{ code: number | null; signal: NodeJS.Signals | null; answers: string[]; stderr: string }> {
  const child = fork(fileURLToPath(new URL("fixtures/busy-server.ts", import.meta.url)), {
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    env: { ...process.env, GRACE_MS: "300" },
  });
  let stderr = "";
  child.stdout!.resume();
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once("exit", (code, signal) => resolve([code, signal])));
  const { port } = await new Promise<{ port: number }>((resolve) => child.once("message", resolve as (m: unknown) => void));
  const client = new CapabilityClient(`127.0.0.1:${port}`, credentials.createInsecure());
  const describeAnswer = (p: Promise<{ error: string; resultJson: Buffer }>) =>
    p.then(
      (res) => (res.error ? res.error : "result"),
      (err: ServiceError) => `status ${err.code}: ${err.details}`,
    );
  // One call first, so the connection is up and the next 50 are on the wire at once.
  expect(await describeAnswer(invoke(client, { tool: "render", args: { ms: 1 } }))).toBe("result");
  const answers: Promise<string>[] = [];
  for (let i = 0; i < 50; i++) answers.push(describeAnswer(invoke(client, { tool: "render", args: { ms: 100 + 40 * i } })));
  await new Promise((r) => setTimeout(r, 200));
  child.kill("SIGTERM");
  // Calls keep arriving while the server drains, as parallel tool calls from Selu do.
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 25));
    answers.push(describeAnswer(invoke(client, { tool: "render", args: { ms: 300 } })));
  }
  const settled = await Promise.all(answers);
  const [code, signal] = await exit;
  client.close();
  return { code, signal, answers: settled, stderr };
}

describe("SIGTERM with many calls in flight, in a real process", () => {
  it("answers every call in flight with its result or 'shutting down', and exits 0", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const { code, signal, answers, stderr } = await run();
      expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: "" });
      // The first 50 were in flight: each gets an answer from the capability.
      for (const answer of answers.slice(0, 50)) expect([SHUTTING_DOWN, "result"]).toContain(answer);
      expect(answers.slice(0, 50)).toContain(SHUTTING_DOWN);
      // Later ones are answered too, or refused by the transport before they started (UNAVAILABLE = 14).
      for (const answer of answers.slice(50)) expect(answer).toMatch(/^(result|render was stopped: the capability is shutting down; try again|status 14: .*)$/);
    }
  }, 60_000);
});
