import { constants, PerformanceObserver } from "node:perf_hooks";
import { afterEach, describe, expect, it } from "vitest";
import { IdleMemory, noCollection } from "./idle-memory.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("IdleMemory", () => {
  let idle: IdleMemory | undefined;
  afterEach(() => idle?.stop());
  /** An always-quiet IdleMemory (stopped after the test) whose steps are recorded in `steps`. */
  const recordSteps = (tidyMs: number, quietMs: number) => {
    const steps: string[] = [];
    const memory = new IdleMemory(() => true, { tidyMs, tidy: () => steps.push("tidy"), quietMs, collect: () => steps.push("collect") });
    idle = memory;
    return { steps, memory };
  };

  it("collects once the process has been quiet for quietMs, once per stretch of work", async () => {
    let collections = 0;
    idle = new IdleMemory(() => true, { quietMs: 30, laterQuietMs: 30, laterMinGrowthBytes: 0, collect: () => collections++ });
    idle.quiet();
    await sleep(15);
    expect(collections).toBe(0);
    await sleep(40);
    expect(collections).toBe(1);
    await sleep(60);
    expect(collections).toBe(1); // nothing new to give back
    idle.quiet();
    await sleep(60);
    expect(collections).toBe(2);
  });

  it("gives memory back again only after laterQuietMs, as each time costs the next call its optimised code", async () => {
    let collections = 0;
    idle = new IdleMemory(() => true, { quietMs: 20, laterQuietMs: 150, laterMinGrowthBytes: 0, collect: () => collections++ });
    idle.quiet();
    await sleep(50);
    expect(collections).toBe(1);
    idle.quiet(); // the next stretch of work ends
    await sleep(80);
    expect(collections).toBe(1);
    idle.quiet(); // and another: the wait runs from it
    await sleep(100);
    expect(collections).toBe(1);
    await sleep(100);
    expect(collections).toBe(2);
  });

  it("gives memory back again only when the heap grew by laterMinGrowthBytes since the last time", async () => {
    let heap = 50;
    const collected: number[] = [];
    idle = new IdleMemory(() => true, { quietMs: 20, laterQuietMs: 20, laterMinGrowthBytes: 8, heapBytes: () => heap, collect: () => collected.push(heap) });
    idle.quiet();
    await sleep(50);
    expect(collected).toEqual([50]); // the first time, whatever the heap
    heap = 57; // light work: 7 more than after the last collection
    idle.quiet();
    await sleep(50);
    expect(collected).toEqual([50]);
    heap = 58; // more work: the growth is measured from the last collection, not the last skip
    idle.quiet();
    await sleep(50);
    expect(collected).toEqual([50, 58]);
    heap = 62;
    idle.quiet();
    await sleep(50);
    expect(collected).toEqual([50, 58]);
  });

  it("waits quietMs from the last work, not the first", async () => {
    let collections = 0;
    idle = new IdleMemory(() => true, { quietMs: 40, collect: () => collections++ });
    idle.quiet();
    await sleep(25);
    idle.quiet();
    await sleep(25);
    expect(collections).toBe(0);
    await sleep(40);
    expect(collections).toBe(1);
  });

  it("does not collect while work is running; the work's end starts the wait again", async () => {
    let collections = 0;
    let busy = true;
    idle = new IdleMemory(() => !busy, { quietMs: 20, collect: () => collections++ });
    idle.quiet();
    await sleep(50);
    expect(collections).toBe(0);
    busy = false;
    idle.quiet();
    await sleep(50);
    expect(collections).toBe(1);
  });

  it("runs V8's full collection by default, without node --expose-gc", async () => {
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe("undefined");
    const majors: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors.push(entry.duration);
    });
    observer.observe({ entryTypes: ["gc"] });
    idle = new IdleMemory(() => true, { quietMs: 10 });
    expect(idle.enabled).toBe(true);
    idle.quiet();
    await sleep(60);
    observer.disconnect();
    expect(majors.length).toBeGreaterThan(0);
  });

  it("does nothing with noCollection for both steps, nor once stopped, whatever ends after", async () => {
    expect(new IdleMemory(() => true, { tidy: noCollection, collect: noCollection }).enabled).toBe(false);
    expect(new IdleMemory(() => true, { quietMs: 1, collect: noCollection }).enabled).toBe(false); // no tidy before it
    let collections = 0;
    idle = new IdleMemory(() => true, { tidyMs: 5, tidy: () => collections++, quietMs: 20, collect: () => collections++ });
    idle.quiet();
    idle.stop();
    idle.quiet(); // a call cancelled by the shutdown ends
    await sleep(50);
    expect(collections).toBe(0);
  });

  it("collects the young generation after tidyMs, then gives memory back after quietMs, once per stretch of work", async () => {
    const { steps, memory } = recordSteps(10, 60);
    memory.quiet();
    await sleep(35);
    expect(steps).toEqual(["tidy"]);
    await sleep(60);
    expect(steps).toEqual(["tidy", "collect"]);
    await sleep(40);
    expect(steps).toEqual(["tidy", "collect"]);
  });

  it("tidies again tidyMs after work that ends while the full collection is pending, which waits on", async () => {
    const { steps, memory } = recordSteps(10, 150);
    memory.quiet();
    await sleep(35);
    expect(steps).toEqual(["tidy"]);
    memory.quiet(); // the next call ends: its young generation is tidied soon, not with the full collection
    await sleep(35);
    expect(steps).toEqual(["tidy", "tidy"]);
    await sleep(30); // 100 ms after the first work, 65 after the last
    expect(steps).toEqual(["tidy", "tidy"]);
    await sleep(130);
    expect(steps).toEqual(["tidy", "tidy", "collect"]);
  });

  it("tidies with noCollection as the full collection, and not at all when tidyMs is no sooner than quietMs", async () => {
    let tidies = 0;
    idle = new IdleMemory(() => true, { tidyMs: 5, tidy: () => tidies++, collect: noCollection });
    expect(idle.enabled).toBe(true);
    idle.quiet();
    await sleep(30);
    expect(tidies).toBe(1);
    idle.stop();
    let collections = 0;
    idle = new IdleMemory(() => true, { tidyMs: 20, tidy: () => tidies++, quietMs: 20, collect: () => collections++ });
    idle.quiet();
    await sleep(50);
    expect([tidies, collections]).toEqual([1, 1]);
  });

  it("runs V8's young-generation collection by default, without node --expose-gc", async () => {
    const minors: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) minors.push(entry.duration);
    });
    observer.observe({ entryTypes: ["gc"] });
    idle = new IdleMemory(() => true, { tidyMs: 5, collect: noCollection });
    idle.quiet();
    await sleep(60);
    observer.disconnect();
    expect(minors.length).toBeGreaterThan(0);
  });
});
