import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { defineCapability, tool } from "../src/index.ts";
import { testCapability } from "./fixtures/capability.ts";
import { call, invoke, start } from "./fixtures/client.ts";

const healthcheck = (client: any) => new Promise<{ ready: boolean; message: string }>((resolve, reject) => client.healthcheck({}, (e: Error | null, r: any) => (e ? reject(e) : resolve(r))));

describe("readiness", () => {
  it("answers not ready, with the reason, until the capability's check passes (a Healthcheck held a second first)", async () => {
    let ok = false;
    const cap = defineCapability({
      id: "gated",
      ready: () => {
        if (!ok) throw new Error("font cache not built");
      },
      tools: { ping: tool({ description: "Ping", input: z.object({}), policy: "allow", run: () => ({ pong: true }) }) },
    });
    const { serve, silentLogger } = await import("../src/index.ts");
    const server = await serve(cap, { host: "127.0.0.1", port: 0, logger: silentLogger, handleSignals: false });
    const { CapabilityClient } = await import("@selu-catalogue/proto");
    const { credentials } = await import("@grpc/grpc-js");
    const client = new CapabilityClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    expect(await healthcheck(client)).toEqual({ ready: false, message: "starting: font cache not built" });
    ok = true;
    await server.ready;
    expect(await healthcheck(client)).toEqual({ ready: true, message: "ready" });
    client.close();
    await server.close(100);
  });
});

describe("readiness, as Selu polls it", () => {
  async function startGated(ready: () => Promise<void> | void) {
    const cap = defineCapability({
      id: "gated",
      ready,
      tools: { ping: tool({ description: "Ping", input: z.object({}), policy: "allow", run: () => ({ pong: true }) }) },
    });
    const { serve, silentLogger } = await import("../src/index.ts");
    const server = await serve(cap, { host: "127.0.0.1", port: 0, logger: silentLogger, handleSignals: false });
    const { CapabilityClient } = await import("@selu-catalogue/proto");
    const { credentials } = await import("@grpc/grpc-js");
    return { server, client: new CapabilityClient(`127.0.0.1:${server.port}`, credentials.createInsecure()) };
  }

  it("holds a Healthcheck asked while starting and answers ready the moment the check passes", async () => {
    const { server, client } = await startGated(() => sleep(300));
    const asked = Date.now();
    expect(await healthcheck(client)).toEqual({ ready: true, message: "ready" });
    // Not "not ready" at once (Selu would ask again 200 ms later), nor held for the whole second.
    expect(Date.now() - asked).toBeGreaterThanOrEqual(250);
    expect(Date.now() - asked).toBeLessThan(900);
    client.close();
    await server.close(100);
  });

  it("answers a held Healthcheck not ready before the client's deadline, not with a timeout", async () => {
    const { server, client } = await startGated(() => sleep(5_000));
    const { Metadata } = await import("@grpc/grpc-js");
    const asked = Date.now();
    const answer = await new Promise((resolve) => client.healthcheck({}, new Metadata(), { deadline: Date.now() + 400 }, (e: Error | null, r: unknown) => resolve(e ?? r)));
    expect(answer).toEqual({ ready: false, message: "starting" });
    expect(Date.now() - asked).toBeGreaterThanOrEqual(250);
    client.close();
    await server.close(100);
  });

  it("answers a held Healthcheck at once when the capability shuts down", async () => {
    const { server, client } = await startGated(() => sleep(5_000));
    const answer = healthcheck(client);
    await sleep(50);
    const closing = Date.now();
    const closed = server.close(100);
    expect(await answer).toEqual({ ready: false, message: "shutting down" });
    expect(Date.now() - closing).toBeLessThan(500);
    client.close();
    await closed;
  });
});

describe("shutdown", () => {
  it("lets calls in flight finish within the grace period, then stops taking calls", async () => {
    const h = await start(testCapability);
    const inFlight = call(h.client, "slow", { ms: 300 });
    await sleep(50);
    await h.server.close(2_000);
    expect(await inFlight).toEqual({ waited: 300 });
    const after = await invoke(h.client, { tool: "echo", args: { text: "x" }, deadlineMs: 500 }).catch((e: Error) => e);
    expect(after).toBeInstanceOf(Error);
    h.client.close();
  });

  it("cancels calls still running when the grace period ends, with a clear error", async () => {
    const h = await start(testCapability);
    const inFlight = invoke(h.client, { tool: "slow", args: { ms: 1_900 } });
    await sleep(50);
    const started = Date.now();
    await h.server.close(200);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect((await inFlight).error).toBe("slow was stopped: the capability is shutting down; try again");
    h.client.close();
  });
});
