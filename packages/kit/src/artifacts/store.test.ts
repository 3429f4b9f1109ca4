import { describe, expect, it } from "vitest";
import { ToolError } from "../errors.js";
import { ArtifactStore } from "./store.js";

const meta = { kind: "output" as const, filename: "f.bin", mimeType: "application/octet-stream" };

const GRACE = 100;

function store(overrides: Partial<{ maxArtifactBytes: number; budgetBytes: number; ttlMs: number }> = {}) {
  let now = 1_000;
  const s = new ArtifactStore({ maxArtifactBytes: 100, budgetBytes: 250, ttlMs: 1_000, unusedGraceMs: GRACE, now: () => now, ...overrides });
  return { s, advance: (ms: number) => (now += ms) };
}

describe("ArtifactStore", () => {
  it("gives each artifact a distinct 128-bit hex id", () => {
    const { s } = store();
    const ids = new Set(Array.from({ length: 50 }, () => s.put(Buffer.from("x"), meta).id));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it("keeps a small file in memory of its own, not in the slab Node pools small buffers in (see ownMemory)", () => {
    const { s } = store({ maxArtifactBytes: 20_000, budgetBytes: 50_000 });
    const pooled = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(13_000, 1)]);
    const [chunk] = s.put(pooled, meta).chunks;
    expect(chunk!.buffer.byteLength).toBe(pooled.byteLength);
    expect(chunk!.equals(pooled)).toBe(true);
  });

  it("forgets artifacts after their TTL", () => {
    const { s, advance } = store();
    const a = s.put(Buffer.alloc(10), meta);
    advance(999);
    expect(s.get(a.id)).toBeDefined();
    advance(1);
    expect(s.get(a.id)).toBeUndefined();
    expect(s.stats().bytes).toBe(0);
  });

  it("evicts the least recently used artifact when the budget is full", () => {
    const { s, advance } = store();
    const a = s.put(Buffer.alloc(100), meta);
    const b = s.put(Buffer.alloc(100), meta);
    advance(GRACE);
    s.get(a.id); // a is now more recent than b
    const c = s.put(Buffer.alloc(100), meta);
    expect(s.get(b.id)).toBeUndefined();
    expect(s.get(a.id)).toBeDefined();
    expect(s.get(c.id)).toBeDefined();
    expect(s.stats().bytes).toBe(200);
  });

  it("evicts expired artifacts before live ones", () => {
    const { s, advance } = store();
    const old = s.put(Buffer.alloc(100), meta);
    advance(600);
    const live = s.put(Buffer.alloc(100), meta);
    s.get(old.id);
    advance(500); // old has expired, live has not
    s.put(Buffer.alloc(100), meta);
    expect(s.get(live.id)).toBeDefined();
  });

  it("refuses a chunk that passes the per-file cap and frees what it had taken", () => {
    const { s } = store();
    const w = s.begin(meta);
    w.write(Buffer.alloc(60));
    expect(() => w.write(Buffer.alloc(41))).toThrow(ToolError);
    expect(s.stats()).toEqual({ bytes: 0, count: 0, reservedBytes: 0 });
  });

  it("refuses when transfers in progress hold the whole budget", () => {
    const { s } = store({ budgetBytes: 150 });
    const w1 = s.begin(meta);
    w1.write(Buffer.alloc(100));
    const w2 = s.begin(meta);
    expect(() => w2.write(Buffer.alloc(60))).toThrow(/taken by transfers in progress/);
    w1.abort();
    expect(s.stats().reservedBytes).toBe(0);
  });

  it("never holds more than its budget, however many artifacts arrive", () => {
    const { s, advance } = store();
    for (let i = 0; i < 100; i++) {
      s.put(Buffer.alloc(1 + (i % 100)), meta);
      advance(GRACE / 4);
      expect(s.stats().bytes).toBeLessThanOrEqual(250);
    }
    expect(s.stats().count).toBeGreaterThan(1);
  });

  it("lets transfers in progress evict stored files only within their three quarters of the budget (issue 10, item 5)", () => {
    const { s, advance } = store({ maxArtifactBytes: 100, budgetBytes: 400 });
    const kept = [s.put(Buffer.alloc(100), meta), s.put(Buffer.alloc(100), meta), s.put(Buffer.alloc(100), meta), s.put(Buffer.alloc(100), meta)];
    advance(GRACE);
    // Uploads that never end: three fit by evicting the oldest files, a fourth would pass the share.
    const writers = [1, 2, 3, 4].map(() => s.begin({ ...meta, kind: "input" }));
    for (const w of writers.slice(0, 3)) w.write(Buffer.alloc(100));
    expect(() => writers[3]!.write(Buffer.alloc(1))).toThrow(/artifact memory \(400 bytes\) is taken by transfers in progress/);
    expect(kept.filter((a) => s.get(a.id)).length).toBe(1);
    expect(s.stats()).toEqual({ bytes: 100, count: 1, reservedBytes: 300 });
  });

  it("keeps a quarter of the budget from transfers even when nothing is stored", () => {
    const { s } = store({ maxArtifactBytes: 100, budgetBytes: 400 });
    const writers = [1, 2, 3, 4].map(() => s.begin(meta));
    for (const w of writers.slice(0, 3)) w.write(Buffer.alloc(100));
    expect(() => writers[3]!.write(Buffer.alloc(100))).toThrow(/taken by transfers in progress/);
    for (const w of writers.slice(0, 3)) w.finish();
    expect(s.stats()).toEqual({ bytes: 300, count: 3, reservedBytes: 0 });
  });

  it("evicts expired artifacts first however lately they were read, then used ones least recently read first", () => {
    const { s, advance } = store({ budgetBytes: 400 });
    const expiring = s.put(Buffer.alloc(100), meta);
    advance(600);
    const [first, second, third] = [s.put(Buffer.alloc(100), meta), s.put(Buffer.alloc(100), meta), s.put(Buffer.alloc(100), meta)];
    for (const a of [first, second, third]) s.markUsed(a.id);
    s.get(first.id); // first is now the most recently read of the used ones
    advance(500); // expiring has expired, the others have not
    s.put(Buffer.alloc(100), meta);
    expect([expiring, first, second, third].map((a) => s.wasEvicted(a.id) || !s.get(a.id))).toEqual([true, false, false, false]);
    s.get(second.id);
    s.get(third.id);
    s.get(first.id); // read order now: second, third, first
    s.put(Buffer.alloc(100), meta);
    expect([first, second, third].map((a) => s.wasEvicted(a.id))).toEqual([false, true, false]);
    s.put(Buffer.alloc(100), meta);
    expect([first, second, third].map((a) => s.wasEvicted(a.id))).toEqual([false, true, true]);
  });

  it("evicts artifacts already used before those still awaited, whatever their recency", () => {
    const { s } = store();
    const awaited = s.put(Buffer.alloc(100), { ...meta, kind: "input" });
    const used = s.put(Buffer.alloc(100), meta);
    s.markUsed(used.id);
    s.get(awaited.id);
    s.get(used.id); // the used one is now the most recent
    s.put(Buffer.alloc(100), meta);
    expect(s.get(used.id)).toBeUndefined();
    expect(s.get(awaited.id)).toBeDefined();
  });

  it("never evicts or expires an artifact a running call has pinned, and refuses in words instead", () => {
    const { s, advance } = store({ budgetBytes: 200 });
    const a = s.put(Buffer.alloc(100), { ...meta, kind: "input" });
    const b = s.put(Buffer.alloc(100), { ...meta, kind: "input" });
    s.pin([a.id, b.id]);
    s.pin([a.id]); // a second call with the same id
    expect(() => s.put(Buffer.alloc(100), meta)).toThrow(/artifact memory \(200 bytes\) is full with the files of calls in progress; send fewer or smaller files at once, or try again shortly/);
    advance(5_000);
    expect(s.get(a.id)).toBeDefined();
    s.unpin([a.id, b.id]);
    expect(s.put(Buffer.alloc(100), meta)).toBeDefined(); // b, no longer pinned, is evicted
    expect(s.get(b.id)).toBeUndefined();
    expect(s.get(a.id)).toBeDefined(); // still pinned once
    s.unpin([a.id]);
    expect(s.get(a.id)).toBeUndefined(); // expired
  });

  it("ignores pins of unknown ids", () => {
    const { s } = store();
    s.pin(["nope"]);
    s.unpin(["nope", "nope"]);
    expect(s.put(Buffer.alloc(100), meta)).toBeDefined();
  });

  it("evicts a new, still unused artifact only after used ones and unused ones past the grace period", () => {
    const { s, advance } = store({ budgetBytes: 300 });
    const old = s.put(Buffer.alloc(100), { ...meta, kind: "input" }); // never attached to a call
    advance(GRACE);
    const fresh = s.put(Buffer.alloc(100), { ...meta, kind: "input" }); // about to be attached to a call
    const used = s.put(Buffer.alloc(100), meta);
    s.markUsed(used.id);
    s.get(old.id); // recency does not outrank the order
    // (wasEvicted, unlike get, leaves recency alone)
    const evicted = () => [used, old, fresh].map((a) => s.wasEvicted(a.id));
    s.put(Buffer.alloc(100), meta);
    expect(evicted()).toEqual([true, false, false]);
    s.put(Buffer.alloc(100), meta);
    expect(evicted()).toEqual([true, true, false]);
    // Only new files left: the least recently used of them goes, rather than a refusal lasting a minute.
    s.put(Buffer.alloc(100), meta);
    expect(evicted()).toEqual([true, true, true]);
    expect(s.stats()).toEqual({ bytes: 300, count: 3, reservedBytes: 0 });
  });

  it("counts a call's attachments as used once the call ends, read or not", () => {
    const { s } = store({ budgetBytes: 200 });
    const attached = s.put(Buffer.alloc(100), { ...meta, kind: "input" });
    s.pin([attached.id]);
    s.unpin([attached.id]); // e.g. its arguments were refused before it read the file
    const fresh = s.put(Buffer.alloc(100), { ...meta, kind: "input" });
    s.put(Buffer.alloc(100), meta);
    expect(s.get(attached.id)).toBeUndefined();
    expect(s.get(fresh.id)).toBeDefined();
  });

  it("remembers which ids it evicted, but not those expired, deleted or never stored", () => {
    const { s, advance } = store({ budgetBytes: 100 });
    const expired = s.put(Buffer.alloc(10), meta);
    const deleted = s.put(Buffer.alloc(10), meta);
    s.delete(deleted.id);
    advance(1_000);
    const evicted = s.put(Buffer.alloc(90), meta); // expired goes to make room
    advance(GRACE);
    s.put(Buffer.alloc(100), meta);
    expect(s.wasEvicted(evicted.id)).toBe(true);
    expect(s.wasEvicted(expired.id)).toBe(false);
    expect(s.wasEvicted(deleted.id)).toBe(false);
    expect(s.wasEvicted("0".repeat(32))).toBe(false);
  });

  it("remembers a bounded number of evicted ids, forgetting the oldest", () => {
    const { s, advance } = store({ budgetBytes: 100, ttlMs: 1e9 });
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) {
      ids.push(s.put(Buffer.alloc(100), meta).id);
      advance(GRACE);
    }
    expect(s.wasEvicted(ids[0]!)).toBe(false);
    expect(s.wasEvicted(ids[298 - 256]!)).toBe(false);
    expect(s.wasEvicted(ids[299 - 256]!)).toBe(true);
    expect(s.wasEvicted(ids[298]!)).toBe(true);
    expect(s.wasEvicted(ids[299]!)).toBe(false); // still held
  });
});
