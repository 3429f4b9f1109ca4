// The in-process call path: one async path whose signal is linked up front, and that nothing (timers,
// abort listeners, tracked calls, a handler's late rejection) outlives a call, whichever way it ends.
import { getEventListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineCapability } from "../capability.js";
import { ToolError } from "../errors.js";
import { silentLogger } from "../log.js";
import { tool } from "../tool.js";
import { invokeTool, type InvokeInput } from "./invoke.js";
import { Runtime } from "./runtime.js";

const seen = { started: 0, aborted: undefined as boolean | undefined };
const capability = defineCapability({
  id: "calls",
  limits: { calls: { max: 32 } },
  tools: {
    sync: tool({ description: "answers at once", input: z.object({ n: z.number() }), policy: "allow", run: ({ n }) => ({ n }) }),
    reads_signal: tool({
      description: "answers at once after looking at its signal",
      input: z.object({}),
      policy: "allow",
      run: (_args, ctx) => {
        seen.aborted = ctx.signal.aborted;
        return { ok: true };
      },
    }),
    sync_throws: tool({
      description: "fails at once",
      input: z.object({}),
      policy: "allow",
      run: () => {
        throw new ToolError("no, and here is why");
      },
    }),
    sync_array: tool({ description: "returns the wrong shape", input: z.object({}), policy: "allow", run: () => [1] as unknown as { n: number } }),
    slow: tool({
      description: "waits for its signal",
      input: z.object({}),
      policy: "allow",
      timeoutMs: 50,
      run: (_args, ctx) => new Promise<{ ok: boolean }>((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason))),
    }),
    late_failure: tool({
      description: "ignores its signal and fails 30 ms after it started",
      input: z.object({}),
      policy: "allow",
      run: async () => {
        seen.started++;
        await sleep(30);
        throw new Error("failed long after the call was answered");
      },
    }),
    quick_async: tool({ description: "answers after a tick", input: z.object({}), policy: "allow", run: async () => ({ ok: true }) }),
  },
});

const input = (toolName: string, args: unknown = {}): InvokeInput => ({
  toolName,
  argsJson: Buffer.from(JSON.stringify(args)),
  configJson: Buffer.from("{}"),
  sessionId: "s",
  threadId: "",
  capabilityId: "calls",
});

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  seen.started = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => void process.off("unhandledRejection", onUnhandled));

describe("one async call path", () => {
  it("answers a synchronous tool, its errors and a wrong result shape", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    expect(await invokeTool(runtime, input("sync", { n: 7 }))).toEqual({ ok: true, resultJson: Buffer.from('{"n":7}') });
    expect(await invokeTool(runtime, input("sync", { n: "x" }))).toEqual({ ok: false, error: expect.stringMatching(/^invalid arguments for sync: n: /) });
    expect(await invokeTool(runtime, input("sync_throws"))).toEqual({ ok: false, error: "no, and here is why" });
    expect(await invokeTool(runtime, input("sync_array"))).toEqual({
      ok: false,
      error: expect.stringMatching(/^sync_array failed because of an internal error \(reference [0-9a-f]{8}\)/),
    });
    expect(runtime.inFlightCount).toBe(0);
  });

  it("hands every handler a live signal linked to the caller's and to shutdown, and detaches it after", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    const caller = new AbortController();
    expect(await invokeTool(runtime, input("reads_signal"), { signal: caller.signal })).toMatchObject({ ok: true });
    expect(seen.aborted).toBe(false);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    expect(getEventListeners(runtime.shutdownSignal, "abort")).toHaveLength(0);
  });

  it("leaves no listener on the caller's or the shutdown signal, and tracks calls until they end", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    const caller = new AbortController();
    const calls = [...Array.from({ length: 20 }, () => invokeTool(runtime, input("quick_async"), { signal: caller.signal })), invokeTool(runtime, input("slow"), { signal: caller.signal })];
    expect(runtime.inFlightCount).toBe(21);
    const outcomes = await Promise.all(calls);
    expect(outcomes.slice(0, 20).every((o) => o.ok)).toBe(true);
    expect(outcomes[20]).toEqual({ ok: false, error: "slow timed out after 50 ms" });
    expect(runtime.inFlightCount).toBe(0);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    expect(getEventListeners(runtime.shutdownSignal, "abort")).toHaveLength(0);
  });

  it("is cancelled by the caller's signal", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    const caller = new AbortController();
    const pending = invokeTool(runtime, input("slow"), { signal: caller.signal });
    caller.abort();
    expect(await pending).toEqual({ ok: false, error: "slow was cancelled by the caller" });
  });
});

describe("calls that end before their handler does (issue 10, item 6)", () => {
  it("does not start a handler once shutdown has begun, and answers 'shutting down'", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    runtime.abortAll();
    expect(await invokeTool(runtime, input("late_failure"))).toEqual({
      ok: false,
      error: "late_failure was stopped: the capability is shutting down; try again",
    });
    expect(seen.started).toBe(0);
  });

  it("does not start a handler whose caller already cancelled", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    expect(await invokeTool(runtime, input("late_failure"), { signal: AbortSignal.abort() })).toEqual({
      ok: false,
      error: "late_failure was cancelled by the caller",
    });
    expect(seen.started).toBe(0);
  });

  it("keeps a handler's rejection after its call was answered from becoming an unhandled rejection", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    const caller = new AbortController();
    const pending = invokeTool(runtime, input("late_failure"), { signal: caller.signal });
    await sleep(5);
    caller.abort();
    expect(await pending).toEqual({ ok: false, error: "late_failure was cancelled by the caller" });
    runtime.abortAll();
    expect(await invokeTool(runtime, input("quick_async"))).toMatchObject({ ok: false });
    await sleep(60);
    expect(seen.started).toBe(1);
    expect(unhandled).toEqual([]);
  });
});

describe("the order of checks and what reaches the logs", () => {
  const keyed = defineCapability({
    id: "keyed",
    credentials: { TOKEN: { scope: "user", required: true, description: "A token" } },
    tools: {
      lookup: tool({ description: "needs a token", input: z.object({ name: z.string() }), policy: "allow", run: ({ name }) => ({ name }) }),
    },
  });

  it("reports bad arguments before a missing credential: the model can fix those itself", async () => {
    const runtime = new Runtime(keyed, { logger: silentLogger });
    expect(await invokeTool(runtime, { ...input("lookup", { name: 3 }), capabilityId: "keyed" })).toEqual({
      ok: false,
      error: expect.stringMatching(/^invalid arguments for lookup: name: /),
    });
    expect(await invokeTool(runtime, { ...input("lookup", { name: "x" }), capabilityId: "keyed" })).toEqual({
      ok: false,
      error: expect.stringMatching(/^missing credential TOKEN/),
    });
  });

  it("keeps a failure's message, which may quote argument values, out of info logs", async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((line) => (lines.push(String(line)), true));
    try {
      const runtime = new Runtime(capability, { logLevel: "info" });
      expect(await invokeTool(runtime, input("sync_throws"))).toEqual({ ok: false, error: "no, and here is why" });
    } finally {
      spy.mockRestore();
    }
    const failed = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === "tool call");
    expect(failed).toMatchObject({ level: "info", tool: "sync_throws", outcome: "tool_error" });
    expect(lines.join("")).not.toContain("here is why");
  });
});
