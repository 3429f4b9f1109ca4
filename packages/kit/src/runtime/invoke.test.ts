// The in-process call path: the synchronous fast path, the lazily armed signal, and that nothing
// (timers, abort listeners, tracked calls) outlives a call, whichever way it ends.
import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineCapability } from "../capability.js";
import { tool } from "../define.js";
import { ToolError } from "../errors.js";
import { silentLogger } from "../log.js";
import { invokeNow, invokeTool, type InvokeInput } from "./invoke.js";
import { Runtime } from "./runtime.js";

const seen: { aborted?: boolean } = {};
const capability = defineCapability({
  id: "calls",
  limits: { calls: { max: 32 } },
  tools: {
    sync: tool({ description: "answers at once", input: z.object({ n: z.number() }), policy: "allow", run: ({ n }) => ({ n }) }),
    sync_reads_signal: tool({
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
    sync_array: tool({ description: "returns the wrong shape", input: z.object({}), policy: "allow", run: () => [1] as never }),
    slow: tool({
      description: "waits for its signal",
      input: z.object({}),
      policy: "allow",
      timeoutMs: 50,
      run: (_args, ctx) => new Promise<{ ok: boolean }>((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason))),
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

/** Options whose signal must not be read: the fast path never arms one. */
const untouchable = {
  get signal(): AbortSignal {
    throw new Error("the signal was read");
  },
};

describe("the synchronous fast path", () => {
  it("answers a synchronous tool without a promise and without reading the caller's signal", () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    const outcome = invokeNow(runtime, input("sync", { n: 7 }), untouchable);
    expect(outcome).not.toBeInstanceOf(Promise);
    expect(outcome).toEqual({ ok: true, resultJson: Buffer.from('{"n":7}') });
    expect(runtime.inFlightCount).toBe(0);
  });

  it("reports validation errors, tool errors and a wrong result shape synchronously too", () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    expect(invokeNow(runtime, input("sync", { n: "x" }), untouchable)).toEqual({
      ok: false,
      error: expect.stringMatching(/^invalid arguments for sync: n: /),
    });
    expect(invokeNow(runtime, input("sync_throws"), untouchable)).toEqual({ ok: false, error: "no, and here is why" });
    expect(invokeNow(runtime, input("sync_array"), untouchable)).toEqual({
      ok: false,
      error: expect.stringMatching(/^sync_array failed because of an internal error \(reference [0-9a-f]{8}\)/),
    });
  });

  it("arms a live signal when a synchronous tool asks for it, and detaches it after", () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    const caller = new AbortController();
    expect(invokeNow(runtime, input("sync_reads_signal"), { signal: caller.signal })).toMatchObject({ ok: true });
    expect(seen.aborted).toBe(false);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    expect(getEventListeners(runtime.shutdownSignal, "abort")).toHaveLength(0);
  });
});

describe("asynchronous calls", () => {
  it("leave no listener on the caller's or the shutdown signal, and are tracked until they end", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    const caller = new AbortController();
    const calls = [
      ...Array.from({ length: 20 }, () => invokeTool(runtime, input("quick_async"), { signal: caller.signal })),
      invokeTool(runtime, input("slow"), { signal: caller.signal }),
    ];
    expect(runtime.inFlightCount).toBe(21);
    const outcomes = await Promise.all(calls);
    expect(outcomes.slice(0, 20).every((o) => o.ok)).toBe(true);
    expect(outcomes[20]).toEqual({ ok: false, error: "slow timed out after 50 ms" });
    expect(runtime.inFlightCount).toBe(0);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    expect(getEventListeners(runtime.shutdownSignal, "abort")).toHaveLength(0);
  });

  it("are cancelled by the caller's signal", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    const caller = new AbortController();
    const pending = invokeTool(runtime, input("slow"), { signal: caller.signal });
    caller.abort();
    expect(await pending).toEqual({ ok: false, error: "slow was cancelled by the caller" });
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
    const failed = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === "tool call failed");
    expect(failed).toMatchObject({ level: "info", tool: "sync_throws", outcome: "error" });
    expect(lines.join("")).not.toContain("here is why");
  });
});
