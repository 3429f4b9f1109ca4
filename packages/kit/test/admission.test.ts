// Issue 10 item 7: the kit enforces the capability's declared concurrency. Calls past it wait, bounded
// in number and time, then are refused in words; heavy work shares ctx.slots.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineCapability } from "../src/index.ts";
import { invoke, start, type Harness } from "./fixtures/client.ts";

const seen = { running: 0, most: 0, heavy: 0, mostHeavy: 0 };
const capability = defineCapability({
  id: "admission",
  limits: { calls: { max: 2, maxWaiting: 2, maxWaitMs: 400 }, workSlots: 2 },
  tools: ({ tool }) => ({
    slow: tool({
      description: "Waits",
      input: z.object({ ms: z.number().int().min(0).max(5_000) }),
      policy: "allow",
      async run({ ms }, ctx) {
        seen.running++;
        seen.most = Math.max(seen.most, seen.running);
        try {
          await sleep(ms, undefined, { signal: ctx.signal });
          return { waited: ms };
        } finally {
          seen.running--;
        }
      },
    }),
    stubborn: tool({
      description: "Works for ms whatever its signal says",
      input: z.object({ ms: z.number().int().min(0).max(5_000) }),
      policy: "allow",
      async run({ ms }) {
        seen.running++;
        seen.most = Math.max(seen.most, seen.running);
        try {
          await sleep(ms);
          return { worked: ms };
        } finally {
          seen.running--;
        }
      },
    }),
    heavy: tool({
      description: "Holds all work slots",
      input: z.object({ ms: z.number().int().min(0).max(5_000) }),
      policy: "allow",
      run: ({ ms }, ctx) =>
        ctx.slots.run(async () => {
          seen.heavy++;
          seen.mostHeavy = Math.max(seen.mostHeavy, seen.heavy);
          await sleep(ms);
          seen.heavy--;
          return { ok: true };
        }, 10),
    }),
  }),
});

let h: Harness;
beforeAll(async () => (h = await start(capability)));
afterAll(() => h.close());

const BUSY = /^the capability is busy: all 2 call slots are taken and /;

describe("declared concurrency", () => {
  it("runs at most calls.max at once, queues calls.maxWaiting and refuses the rest of a burst in words", async () => {
    seen.most = 0;
    const answers = await Promise.all(Array.from({ length: 60 }, () => invoke(h.client, { tool: "slow", args: { ms: 150 } })));
    const ok = answers.filter((a) => a.error === "");
    const refused = answers.filter((a) => a.error !== "");
    expect(seen.most).toBe(2);
    expect(ok.length).toBeGreaterThanOrEqual(4);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r.error).toMatch(BUSY);
    expect(refused[0]!.error).toMatch(/and 2 more are waiting; try again in a moment or make fewer calls at once$/);
  });

  it("refuses a call that waited longer than calls.maxWaitMs", async () => {
    const running = [invoke(h.client, { tool: "slow", args: { ms: 900 } }), invoke(h.client, { tool: "slow", args: { ms: 900 } })];
    await sleep(50);
    const late = await invoke(h.client, { tool: "slow", args: { ms: 1 } });
    expect(late.error).toMatch(/and none came free within 400 ms; try again/);
    await Promise.all(running);
  });

  it("gives a waiting call's place back when its client cancels it", async () => {
    const running = [invoke(h.client, { tool: "slow", args: { ms: 1_500 } }), invoke(h.client, { tool: "slow", args: { ms: 1_500 } })];
    await sleep(50);
    const cancel = new AbortController();
    const cancelled = h.client.invoke({ toolName: "slow", argsJson: Buffer.from('{"ms":1}'), configJson: Buffer.from("{}"), sessionId: "", capabilityId: "", threadId: "" }, () => {});
    cancel.signal.addEventListener("abort", () => cancelled.cancel());
    await sleep(20);
    expect(h.server.runtime.calls.stats).toEqual({ busy: 2, waiting: 1 });
    cancel.abort();
    for (let i = 0; i < 50 && h.server.runtime.calls.stats.waiting > 0; i++) await sleep(10);
    expect(h.server.runtime.calls.stats).toEqual({ busy: 2, waiting: 0 });
    await Promise.all(running);
  });

  it("keeps the slot of a call its client gave up on until the handler ends: never more than calls.max handlers run", async () => {
    seen.most = 0;
    // Two run and two wait; each client gives up after 60 ms, but the running handlers go on to 400 ms.
    const abandoned = await Promise.allSettled([1, 2, 3, 4].map(() => invoke(h.client, { tool: "stubborn", args: { ms: 400 }, deadlineMs: 60 })));
    expect(abandoned.map((a) => a.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
    // The server learns of each client's giving up a moment later.
    for (let i = 0; i < 20 && h.server.runtime.calls.stats.waiting > 0; i++) await sleep(5);
    expect(h.server.runtime.calls.stats).toEqual({ busy: 2, waiting: 0 });
    const started = performance.now();
    const next = await Promise.all([1, 2].map(() => invoke(h.client, { tool: "slow", args: { ms: 1 } })));
    expect(next.map((a) => a.error)).toEqual(["", ""]);
    expect(performance.now() - started).toBeGreaterThan(200);
    expect(seen.most).toBe(2);
  });

  it("lets ctx.slots run one heavy job at a time whatever its weight", async () => {
    seen.mostHeavy = 0;
    const answers = await Promise.all([1, 2, 3, 4].map(() => invoke(h.client, { tool: "heavy", args: { ms: 60 } })));
    expect(answers.map((a) => a.error)).toEqual(["", "", "", ""]);
    expect(seen.mostHeavy).toBe(1);
  });
});
