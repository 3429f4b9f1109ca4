import { describe, expect, it } from "vitest";
import { WorkSlots } from "./work-slots.js";

const never = new AbortController().signal;
const tick = () => new Promise((r) => setImmediate(r));

describe("WorkSlots", () => {
  it("lets light work share the slots and makes heavy work wait for all of them, in order", async () => {
    const slots = new WorkSlots({ size: 2 });
    const a = await slots.acquire(never);
    const b = await slots.acquire(never);
    const order: string[] = [];
    const heavy = slots.acquire(never, 5).then((r) => (order.push("heavy"), r));
    const light = slots.acquire(never).then((r) => (order.push("light"), r));
    a();
    await tick();
    expect(order).toEqual([]); // the heavy caller at the head is not overtaken
    b();
    (await heavy)();
    (await light)();
    expect(order).toEqual(["heavy", "light"]);
    expect(slots.stats).toEqual({ busy: 0, waiting: 0 });
  });

  it("takes free slots synchronously only when nobody waits", async () => {
    const slots = new WorkSlots({ size: 1 });
    const first = slots.tryAcquire()!;
    expect(slots.tryAcquire()).toBeUndefined();
    const waiting = slots.acquire(never);
    first();
    expect(slots.tryAcquire()).toBeUndefined(); // handed to the waiter, not the newcomer
    (await waiting)();
    expect(slots.stats.busy).toBe(0);
  });

  it("stops waiting when the caller's signal aborts and lets the next one through", async () => {
    const slots = new WorkSlots({ size: 1 });
    const held = await slots.acquire(never);
    const cancel = new AbortController();
    const cancelled = slots.acquire(cancel.signal, 1);
    const next = slots.acquire(never);
    cancel.abort(new Error("stopped by the user"));
    await expect(cancelled).rejects.toThrow("stopped by the user");
    held();
    (await next)();
    expect(slots.stats).toEqual({ busy: 0, waiting: 0 });
  });

  it("refuses a caller past the queue bound at once, in words", async () => {
    const slots = new WorkSlots({ size: 1, maxWaiting: 1, label: "calls" });
    const held = await slots.acquire(never);
    const queued = slots.acquire(never);
    await expect(slots.acquire(never)).rejects.toThrow("the capability is busy: all 1 calls are taken and 1 more are waiting; try again in a moment or make fewer calls at once");
    held();
    (await queued)();
  });

  it("refuses a caller that waited past the wait limit and frees its place", async () => {
    const slots = new WorkSlots({ size: 1, maxWaitMs: 20, label: "calls" });
    const held = await slots.acquire(never);
    await expect(slots.acquire(never)).rejects.toThrow("the capability is busy: all 1 calls are taken and none came free within 20 ms");
    expect(slots.stats).toEqual({ busy: 1, waiting: 0 });
    held();
  });

  it("frees the slots however the work ends, and only once", async () => {
    const slots = new WorkSlots({ size: 2 });
    await expect(slots.run(never, () => Promise.reject(new Error("boom")), 2)).rejects.toThrow("boom");
    expect(slots.stats.busy).toBe(0);
    const release = slots.tryAcquire()!;
    release();
    release();
    expect(slots.stats.busy).toBe(0);
  });
});
