// The artifact store's cost per stored file as it fills up: a shared capability's store holds every
// output until its budget is full (40 MiB in pdf: about 2,200 letters), and from then on each new file
// evicts an old one. Puts into a store full of used files of a letter's size, and of a small file's, against
// a store holding ten (the baseline, measured in the same run); warm, and after 300 ms idle as between a
// model's calls. In this process, from the build (dist/): the store's own code, nothing of gRPC.
import { setTimeout as sleep } from "node:timers/promises";
import type { ArtifactStore as Store } from "../src/artifacts/store.ts";
import { fmt, median, MiB, table } from "./stats.ts";

const { ArtifactStore } = (await import(new URL("../dist/artifacts/store.js", import.meta.url).href)) as { ArtifactStore: typeof Store };

const BUDGET = 40 * MiB;
const meta = { kind: "output", filename: "letter.pdf", mimeType: "application/pdf" } as const;

/** A store of `files` used files of `size` bytes each (the budget full when they fill it). */
function filled(files: number, size: number) {
  const store = new ArtifactStore({ maxArtifactBytes: 5 * MiB, budgetBytes: BUDGET, ttlMs: 6 * 3600_000 });
  const bytes = Buffer.alloc(size, 1);
  // As after a download began: used, so first in line to go.
  const put = () => store.markUsed(store.put(bytes, meta).id);
  for (let i = 0; i < files; i++) put();
  return { put, count: store.stats().count };
}

async function measure(files: number, size: number) {
  const { put, count } = filled(files, size);
  const warm: number[] = [];
  for (let i = 0; i < 2_000; i++) {
    const t = performance.now();
    put();
    warm.push((performance.now() - t) * 1000);
  }
  const idle: number[] = [];
  for (let i = 0; i < 15; i++) {
    await sleep(300);
    const t = performance.now();
    put();
    idle.push((performance.now() - t) * 1000);
  }
  return { count, warmUs: median(warm), idleUs: median(idle) };
}

const base = await measure(10, 17_000);
const rows = [
  { label: "10 files held (baseline)", ...base },
  { label: "full of 17 KB files (a letter's)", ...(await measure(Math.ceil(BUDGET / 17_000) + 10, 17_000)) },
  { label: "full of 1 KB files", ...(await measure(Math.ceil(BUDGET / 1_000) + 10, 1_000)) },
];
console.log("artifact store: one put, which evicts what the budget needs (µs, medians)");
console.log(
  table(
    ["store", "files held", "warm", "vs baseline", "after 300 ms idle", "vs baseline"],
    rows.map((r) => [r.label, String(r.count), fmt(r.warmUs), `${fmt(r.warmUs / base.warmUs)}×`, fmt(r.idleUs), `${fmt(r.idleUs / base.idleUs)}×`]),
  ),
);
