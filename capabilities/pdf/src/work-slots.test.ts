import { describe, expect, it } from "vitest";
import { WorkSlots } from "./work-slots.js";

const tick = () => new Promise((r) => setImmediate(r));
const live = new AbortController().signal;

describe("WorkSlots", () => {
  it("lets two light callers in at once and the third in when one leaves", async () => {
    const slots = new WorkSlots(2);
    const a = await slots.acquire(live);
    await slots.acquire(live);
    let third = false;
    const waiting = slots.acquire(live).then((release) => ((third = true), release));
    await tick();
    expect(third).toBe(false);
    expect(slots.stats).toEqual({ busy: 2, waiting: 1 });
    a();
    a(); // releasing twice frees once
    await waiting;
    expect(third).toBe(true);
    expect(slots.stats).toEqual({ busy: 2, waiting: 0 });
  });

  it("runs a heavy caller alone, and does not let lighter ones overtake it", async () => {
    const slots = new WorkSlots(2);
    const light = await slots.acquire(live);
    const order: string[] = [];
    const heavy = slots.acquire(live, 2).then((release) => (order.push("heavy"), release));
    const later = slots.acquire(live).then((release) => (order.push("later"), release));
    await tick();
    expect(order).toEqual([]);
    light();
    (await heavy)();
    (await later)();
    expect(order).toEqual(["heavy", "later"]);
    expect(slots.stats).toEqual({ busy: 0, waiting: 0 });
  });

  it("drops a waiting caller whose signal aborts, with the signal's reason, and lets the next in", async () => {
    const slots = new WorkSlots(2);
    const light = await slots.acquire(live);
    const controller = new AbortController();
    const heavy = slots.acquire(controller.signal, 2);
    const behind = slots.acquire(live);
    controller.abort(new Error("deadline"));
    await expect(heavy).rejects.toThrow("deadline");
    (await behind)();
    light();
    expect(slots.stats).toEqual({ busy: 0, waiting: 0 });
  });
});
