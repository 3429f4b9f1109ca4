import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { credentials } from "@grpc/grpc-js";
import { CapabilityClient } from "@selu-catalogue/proto";
import { describe, expect, it } from "vitest";
import { invoke } from "./fixtures/client.ts";

describe("SIGTERM in a real process", () => {
  it("drains the call in flight, answers it, and exits 0", async () => {
    const child = fork(fileURLToPath(new URL("fixtures/sigterm-server.ts", import.meta.url)), { stdio: ["ignore", "pipe", "pipe", "ipc"] });
    let logs = "";
    child.stdout!.on("data", (d: Buffer) => (logs += d.toString()));
    const { port } = await new Promise<{ port: number }>((resolve) => child.once("message", resolve as (m: unknown) => void));
    const client = new CapabilityClient(`127.0.0.1:${port}`, credentials.createInsecure());
    const inFlight = invoke(client, { tool: "slow", args: { ms: 600 } });
    await new Promise((r) => setTimeout(r, 150));
    child.kill("SIGTERM");
    const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const res = await inFlight;
    expect(res.error).toBe("");
    expect(JSON.parse(res.resultJson.toString())).toEqual({ waited: 600 });
    expect(await exit).toBe(0);
    client.close();
    const lines = logs
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { msg: string });
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(["listening", "ready", "signal received", "draining", "stopped"]));
  });
});
