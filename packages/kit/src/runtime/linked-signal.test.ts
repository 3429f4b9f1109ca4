// The scopes' time limits: one shared timer instead of one per call, each scope still timed out at its
// own deadline, and no process kept alive by it.
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { LinkedSignal, ScopeGroup } from "./linked-signal.js";

const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

async function abortedAfter(scope: LinkedSignal, started: number): Promise<{ ms: number; message: string }> {
  if (!scope.signal.aborted) await once(scope.signal, "abort");
  return { ms: performance.now() - started, message: (scope.signal.reason as Error).message };
}

describe("the time limits of a group's scopes", () => {
  it("times each scope out at its own deadline, also one shorter than a scope that started before it", async () => {
    const group = new ScopeGroup();
    const started = performance.now();
    const long = new LinkedSignal(group, "long", 300);
    const short = new LinkedSignal(group, "short", 40);
    const middle = new LinkedSignal(group, "middle", 120);
    const none = new LinkedSignal(group, "none", undefined);
    const [s, m, l] = await Promise.all([abortedAfter(short, started), abortedAfter(middle, started), abortedAfter(long, started)]);
    expect(s.message).toBe("short timed out after 40 ms");
    expect(s.ms).toBeGreaterThanOrEqual(39);
    expect(m.message).toBe("middle timed out after 120 ms");
    expect(m.ms).toBeGreaterThanOrEqual(119);
    expect(l.message).toBe("long timed out after 300 ms");
    expect(l.ms).toBeGreaterThanOrEqual(299);
    expect(none.signal.aborted).toBe(false);
    for (const scope of [long, short, middle, none]) scope.dispose();
  });

  it("does not time out a scope that ended before its deadline, nor the scopes after it early", async () => {
    const group = new ScopeGroup();
    const started = performance.now();
    const ended = new LinkedSignal(group, "ended", 30);
    const later = new LinkedSignal(group, "later", 90);
    ended.dispose();
    expect(await abortedAfter(later, started)).toMatchObject({ message: "later timed out after 90 ms" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(89);
    expect(ended.signal.aborted).toBe(false);
    later.dispose();
  });

  it("arms no Node timer per scope, and none that keeps the process alive", () => {
    const group = new ScopeGroup();
    const before = timers();
    const scopes = Array.from({ length: 50 }, (_, i) => new LinkedSignal(group, `call ${i}`, 60_000 - i));
    expect(timers()).toBe(before);
    for (const scope of scopes) scope.dispose();
    expect(timers()).toBe(before);
  });
});
