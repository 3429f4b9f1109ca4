// The in-process call path: one async path whose signal is linked up front, and that nothing (timers,
// abort listeners, tracked calls, a handler's late rejection) outlives a call, whichever way it ends.
import { getEventListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineCapability } from "../capability.js";
import { ToolError } from "../errors.js";
import { silentLogger, type LogFields, type Logger } from "../log.js";
import { tool } from "../tool.js";
import { MAX_RESULT_BYTES } from "../limits/result-bound.js";
import { invokeTool, MAX_ERROR_CHARS, type InvokeInput } from "./invoke.js";
import { Runtime } from "./runtime.js";

const seen = { started: 0, aborted: undefined as boolean | undefined, repairs: 0 };
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
    blocks: tool({
      description: "echoes a block of a discriminated union and a paper size",
      input: z.object({
        block: z.discriminatedUnion("type", [z.object({ type: z.literal("image"), caption: z.string().optional() }).strict(), z.object({ type: z.literal("page_break") }).strict()]),
        size: z.enum(["A4", "Letter"]).optional(),
      }),
      policy: "allow",
      run: (args) => args,
    }),
    quotes: tool({
      description: "refuses its text, quoting it whole",
      input: z.object({ text: z.string() }),
      policy: "allow",
      run: ({ text }) => {
        throw new ToolError(`cannot use ${text}`);
      },
    }),
    repairs: tool({
      description: "echoes a block, taking `figure` for an image and `Picture` in another case",
      input: z.object({ block: z.discriminatedUnion("type", [z.object({ type: z.literal("image"), caption: z.string().optional() }).strict(), z.object({ type: z.literal("page_break") }).strict()]) }),
      policy: "allow",
      repair: (args) => {
        seen.repairs++;
        const block = args.block as { type?: unknown };
        if (block?.type === "chart") throw new ToolError("block.type: a chart is not drawn here; give an image of it");
        if (block?.type !== "figure" && block?.type !== "Figure") return false;
        block.type = block.type === "figure" ? "image" : "Image";
        return true;
      },
      run: (args) => args,
    }),
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

  it("takes options in another case or spelling as meant, and then reads the nulls of the branch they name", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    const outcome = await invokeTool(runtime, input("blocks", { block: { type: "Image", caption: null }, size: "a4" }));
    expect(outcome).toEqual({ ok: true, resultJson: Buffer.from('{"block":{"type":"image"},"size":"A4"}') });
    expect(await invokeTool(runtime, input("blocks", { block: { type: "Page Break" } }))).toMatchObject({ ok: true });
    expect(await invokeTool(runtime, input("blocks", { block: { type: "image" }, size: "A5" }))).toEqual({ ok: false, error: expect.stringMatching(/^invalid arguments for blocks: size: /) });
  });

  it("lets a tool repair what models write in another shape after a failed parse only, then fixes the case too", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    seen.repairs = 0;
    expect(await invokeTool(runtime, input("repairs", { block: { type: "image" } }))).toMatchObject({ ok: true });
    expect(seen.repairs).toBe(0);
    expect(await invokeTool(runtime, input("repairs", { block: { type: "figure", caption: "c" } }))).toEqual({ ok: true, resultJson: Buffer.from('{"block":{"type":"image","caption":"c"}}') });
    // Repaired into another case, then read in the schema's: both fixes in one call.
    expect(await invokeTool(runtime, input("repairs", { block: { type: "Figure" } }))).toEqual({ ok: true, resultJson: Buffer.from('{"block":{"type":"image"}}') });
    expect(await invokeTool(runtime, input("repairs", { block: { type: "diagram" } }))).toEqual({ ok: false, error: expect.stringMatching(/^invalid arguments for repairs: block\.type: /) });
    // What the repair refuses is an argument error like the schema's, in the repair's words.
    expect(await invokeTool(runtime, input("repairs", { block: { type: "chart" } }))).toEqual({
      ok: false,
      error: "invalid arguments for repairs: block.type: a chart is not drawn here; give an image of it",
    });
  });

  it("tells an unknown key inside the arguments what its object takes, in the union member the value is of", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    expect(await invokeTool(runtime, input("repairs", { block: { type: "image", caption: "c", size: 3 } }))).toEqual({
      ok: false,
      error: 'invalid arguments for repairs: block: unknown key "size" (it takes: type, caption)',
    });
    expect(await invokeTool(runtime, input("repairs", { block: { type: "page_break", caption: "c" } }))).toEqual({
      ok: false,
      error: 'invalid arguments for repairs: block: unknown key "caption" (it takes: type)',
    });
  });

  it("keeps errors short whatever they quote: unknown keys in part, any error at MAX_ERROR_CHARS", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    const keys = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`key${i}`, i]));
    const many = await invokeTool(runtime, input("sync", { n: 1, ...keys }));
    expect(many).toEqual({ ok: false, error: 'invalid arguments for sync: (arguments): unknown keys "key0", "key1", "key2", "key3", "key4", and 1995 more (the tool takes: n)' });
    const long = await invokeTool(runtime, input("sync", { n: 1, [`a${"😀".repeat(50_000)}`]: 1 }));
    expect(long).toEqual({ ok: false, error: `invalid arguments for sync: (arguments): unknown key "a${"😀".repeat(19)}…" (the tool takes: n)` });
    const quoting = await invokeTool(runtime, input("quotes", { text: "€".repeat(100_000) }));
    expect(quoting.ok).toBe(false);
    const error = (quoting as { error: string }).error;
    expect(error).toBe(`cannot use ${"€".repeat(MAX_ERROR_CHARS - 11)}… (error shortened)`);
    expect(Buffer.byteLength(error)).toBeLessThan(MAX_RESULT_BYTES / 3);
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

  it("resolves idle() once the calls in flight have ended (shutdown waits for it)", async () => {
    const runtime = new Runtime(capability, { logger: silentLogger });
    await runtime.idle();
    let idle = false;
    const calls = [invokeTool(runtime, input("quick_async")), invokeTool(runtime, input("slow"))];
    const waited = runtime.idle().then(() => (idle = true));
    await calls[0];
    expect(idle).toBe(false);
    await Promise.all([...calls, waited]);
    expect(idle).toBe(true);
    expect(runtime.inFlightCount).toBe(0);
  });

  it("gives memory back once no call has run for a while, not while one runs", async () => {
    let collections = 0;
    const runtime = new Runtime(capability, { logger: silentLogger, idleMemory: { quietMs: 30, collect: () => collections++ } });
    const slow = invokeTool(runtime, input("slow")); // times out after 50 ms
    await invokeTool(runtime, input("quick_async"));
    await sleep(40);
    expect(collections).toBe(0);
    await slow;
    await sleep(60);
    expect(collections).toBe(1);
    runtime.abortAll();
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

type LogRecord = Record<string, unknown>;
const recording = (records: LogRecord[], base: LogFields = {}): Logger => ({
  debug: (msg, fields) => void records.push({ level: "debug", msg, ...base, ...fields }),
  info: (msg, fields) => void records.push({ level: "info", msg, ...base, ...fields }),
  warn: (msg, fields) => void records.push({ level: "warn", msg, ...base, ...fields }),
  error: (msg, fields) => void records.push({ level: "error", msg, ...base, ...fields }),
  child: (fields) => recording(records, { ...base, ...fields }),
});

describe("the outcome kind of each call in the operators' line (issue 11)", () => {
  const outcomes = (records: LogRecord[]) => records.filter((r) => r.msg === "tool call").map(({ tool, outcome }) => ({ tool, outcome }));

  const admitted = defineCapability({
    id: "admitted",
    limits: { calls: { max: 1, maxWaiting: 4, maxWaitMs: 5_000 } },
    credentials: { TOKEN: { scope: "user", required: false, description: "A token" } },
    tools: {
      hold: tool({
        description: "holds the one call slot",
        input: z.object({ ms: z.number() }),
        policy: "allow",
        run: async ({ ms }) => {
          await sleep(ms);
          return { held: ms };
        },
      }),
      quick: tool({ description: "answers at once, within 100 ms", input: z.object({}), policy: "allow", timeoutMs: 100, run: () => ({ ok: true }) }),
    },
  });

  it("counts the wait for a call slot against the tool's timeout, as Selu's deadline covers the whole call", async () => {
    const records: LogRecord[] = [];
    const runtime = new Runtime(admitted, { logger: recording(records) });
    const holding = invokeTool(runtime, input("hold", { ms: 300 }));
    const waited = await invokeTool(runtime, input("quick"));
    expect(waited).toEqual({ ok: false, error: "quick timed out after 100 ms" });
    expect(runtime.calls.stats).toEqual({ busy: 1, waiting: 0 });
    expect(await holding).toEqual({ ok: true, resultJson: Buffer.from('{"held":300}') });
    // Waiting less than its timeout, the same call runs.
    const shortHold = invokeTool(runtime, input("hold", { ms: 30 }));
    expect(await invokeTool(runtime, input("quick"))).toMatchObject({ ok: true });
    await shortHold;
    expect(outcomes(records)).toEqual([
      { tool: "quick", outcome: "timeout" },
      { tool: "hold", outcome: "ok" },
      { tool: "hold", outcome: "ok" },
      { tool: "quick", outcome: "ok" },
    ]);
  });

  it("logs an oversized or malformed config_json as a credentials problem (the user sets it, not the model)", async () => {
    const records: LogRecord[] = [];
    const runtime = new Runtime(admitted, { logger: recording(records) });
    const oversized = await invokeTool(runtime, { ...input("quick"), configJson: Buffer.from(JSON.stringify({ TOKEN: "x".repeat(300 * 1024) })) });
    expect(oversized).toEqual({ ok: false, error: expect.stringMatching(/^config_json is 300\.0 KiB, over the 256 KiB quick accepts; check the credential values/) });
    const malformed = await invokeTool(runtime, { ...input("quick"), configJson: Buffer.from('{"TOKEN": "sec') });
    expect(malformed).toEqual({ ok: false, error: "config_json is not valid JSON" });
    expect(outcomes(records)).toEqual([
      { tool: "quick", outcome: "missing_credentials" },
      { tool: "quick", outcome: "missing_credentials" },
    ]);
  });

  it("logs a call to a tool the configuration does not offer, and to one that does not exist, as unknown_tool", async () => {
    const records: LogRecord[] = [];
    const dynamic = defineCapability({
      id: "dynamic",
      credentials: { REMOTE_URL: { scope: "system", required: false, description: "A remote store" } },
      tools: ({ tool }) => ({
        local: tool({ description: "Always offered", input: z.object({}), policy: "allow", run: () => ({ ok: true }) }),
        remote: tool({ description: "Offered with a remote", input: z.object({}), policy: "allow", run: () => ({ ok: true }) }),
      }),
      discovery: { offer: (config) => (config.REMOTE_URL ? ["local", "remote"] : ["local"]) },
    });
    const runtime = new Runtime(dynamic, { logger: recording(records) });
    expect(await invokeTool(runtime, { ...input("remote"), capabilityId: "dynamic" })).toEqual({
      ok: false,
      error: "tool remote is not offered in this configuration; it offers: local",
    });
    expect(await invokeTool(runtime, { ...input("nope"), capabilityId: "dynamic" })).toMatchObject({ ok: false });
    expect(await invokeTool(runtime, { ...input("list_tools"), capabilityId: "dynamic" })).toMatchObject({ ok: true });
    expect(outcomes(records)).toEqual([
      { tool: "remote", outcome: "unknown_tool" },
      { tool: "nope", outcome: "unknown_tool" },
      { tool: "list_tools", outcome: "ok" },
    ]);
  });
});

describe("a call answered before its handler ends keeps its slot until it does", () => {
  const running = { now: 0, most: 0 };
  const held = defineCapability({
    id: "held",
    limits: { calls: { max: 1, maxWaiting: 4, maxWaitMs: 5_000, cancelGraceMs: 150 } },
    tools: {
      // Ignores its signal: the work goes on after its call is answered.
      stubborn: tool({
        description: "works for ms, whatever its signal says; forever when ms is 0",
        input: z.object({ ms: z.number() }),
        policy: "allow",
        run: async ({ ms }) => {
          running.now++;
          running.most = Math.max(running.most, running.now);
          try {
            await (ms ? sleep(ms) : new Promise(() => {}));
            return { worked: ms };
          } finally {
            running.now--;
          }
        },
      }),
      quick: tool({
        description: "answers at once",
        input: z.object({}),
        policy: "allow",
        run: () => {
          running.most = Math.max(running.most, running.now + 1);
          return { ok: true };
        },
      }),
    },
  });
  beforeEach(() => void Object.assign(running, { now: 0, most: 0 }));

  it("answers the cancelled call at once, and runs the next one only once the handler has ended", async () => {
    const runtime = new Runtime(held, { logger: silentLogger });
    const caller = new AbortController();
    const started = performance.now();
    const cancelled = invokeTool(runtime, input("stubborn", { ms: 120 }), { signal: caller.signal });
    await sleep(10);
    caller.abort();
    expect(await cancelled).toEqual({ ok: false, error: "stubborn was cancelled by the caller" });
    expect(performance.now() - started).toBeLessThan(100);
    expect(runtime.calls.stats).toEqual({ busy: 1, waiting: 0 });
    expect(await invokeTool(runtime, input("quick"))).toMatchObject({ ok: true });
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    expect(running.most).toBe(1);
    expect(runtime.calls.stats).toEqual({ busy: 0, waiting: 0 });
  });

  it("keeps no more handlers running than calls.max however many calls a client cancels", async () => {
    const runtime = new Runtime(held, { logger: silentLogger });
    const answers = [];
    for (let i = 0; i < 5; i++) {
      const caller = new AbortController();
      const call = invokeTool(runtime, input("stubborn", { ms: 40 }), { signal: caller.signal });
      setTimeout(() => caller.abort(), 5);
      answers.push(call);
    }
    expect(await Promise.all(answers)).toEqual(Array(5).fill({ ok: false, error: "stubborn was cancelled by the caller" }));
    expect(running.most).toBe(1);
  });

  it("gives the slot back after calls.cancelGraceMs, with a warning, when the handler never ends", async () => {
    const records: LogRecord[] = [];
    const runtime = new Runtime(held, { logger: recording(records) });
    const caller = new AbortController();
    const cancelled = invokeTool(runtime, input("stubborn", { ms: 0 }), { signal: caller.signal });
    await sleep(10);
    caller.abort();
    await cancelled;
    const waited = performance.now();
    expect(await invokeTool(runtime, input("quick"))).toMatchObject({ ok: true });
    expect(performance.now() - waited).toBeGreaterThanOrEqual(120);
    expect(records.filter((r) => r.level === "warn")).toEqual([{ level: "warn", msg: "a cancelled call's handler still runs; its call slot is given back", tool: "stubborn", graceMs: 150 }]);
  });
});
