import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { defineCapability, serve, silentLogger, tool } from "@selu-catalogue/kit";
import { expect, it } from "vitest";
import { z } from "zod";
import { Orchestrator } from "../src/orchestrator/index.js";

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

it("reads a capability ready at the first poll after it listens, as Selu's polls do (no reconnect backoff in between)", async () => {
  const capability = defineCapability({
    id: "late",
    tools: { ping: tool({ description: "Ping", input: z.object({}), policy: "allow", run: () => ({ pong: true }) }) },
  });
  const port = await freePort();
  const orchestrator = new Orchestrator();
  // Polling starts with nothing listening; the server comes up between the first two polls, after the
  // first reconnect attempt a grpc-js channel would make (it would then fail polls until its next one).
  const installed = orchestrator.install({ id: "late", credentials: [], tools: [{ name: "ping", input_schema: { type: "object" } }] }, `127.0.0.1:${port}`);
  await sleep(150);
  const server = await serve(capability, { host: "127.0.0.1", port, logger: silentLogger, handleSignals: false });
  const listening = performance.now();
  await installed;
  const seenReady = performance.now() - listening;
  // The next poll, due ~50 ms after the server listens, finds it (a backoff would make it ~250 ms).
  expect(seenReady).toBeLessThan(170);
  await orchestrator.close();
  await server.close(100);
});
