import { status, type ServiceError } from "@grpc/grpc-js";
import { defineCapability, serve, silentLogger, tool, type ServedCapability } from "@selu-catalogue/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { checkHealth, connectCapability, invokeCapability } from "../src/orchestrator/index.js";

// A tool that runs until its signal fires, and counts how many calls saw it fire.
const seen = { aborted: 0 };
const waiting = defineCapability({
  id: "waiting",
  tools: {
    wait: tool({
      description: "waits for cancellation",
      input: z.object({}),
      policy: "allow",
      run: (_args, ctx) => new Promise<{ ok: boolean }>((_, reject) => ctx.signal.addEventListener("abort", () => (seen.aborted++, reject(ctx.signal.reason)), { once: true })),
    }),
  },
});

let server: ServedCapability;
let client: ReturnType<typeof connectCapability>;
beforeAll(async () => {
  server = await serve(waiting, { host: "127.0.0.1", port: 0, logger: silentLogger, handleSignals: false });
  client = connectCapability(`127.0.0.1:${server.port}`);
  expect(await checkHealth(client)).toBe(true);
});
afterAll(async () => {
  client.close();
  await server.close(100);
});

const request = { toolName: "wait", argsJson: Buffer.from("{}"), configJson: Buffer.from("{}"), sessionId: "s", capabilityId: "waiting", threadId: "" };
const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable("the call answered"),
    (e: ServiceError) => e,
  );

describe("the raw Invoke helper", () => {
  it("ends a call when Selu's client-side timer fires (CANCELLED, Timeout expired), and the handler's signal fires", async () => {
    const before = seen.aborted;
    const err = await failure(invokeCapability(client, request, { deadlineMs: 150 }));
    expect(err.code).toBe(status.CANCELLED);
    expect(err.details).toBe("Timeout expired");
    await expect.poll(() => seen.aborted).toBe(before + 1);
  });

  it("cancels a call when its signal aborts, and the handler's signal fires", async () => {
    const before = seen.aborted;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await failure(invokeCapability(client, request, { signal: controller.signal }));
    expect(err.code).toBe(status.CANCELLED);
    await expect.poll(() => seen.aborted).toBe(before + 1);
  });
});
