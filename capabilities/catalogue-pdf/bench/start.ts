// `pnpm bench:start`: what a user meets right after the capability starts (issue 17, item 3), measured
// through the production entrypoint and the orchestrator double: time to ready, the first one-page letter
// (fonts parsed and warmed before ready; wall time, and the CPU of all the server's threads, which a busy
// machine disturbs less), the letter's size, idle memory (VmHWM when ready, the peak of
// start-up and warm-up included, which is the side-by-side bench's "RSS idle"; VmRSS 300 ms later), a
// first document in each script family (a fallback font read on first use) with the RSS after them, and
// the side-by-side bench's 20-page report (median of three). Medians of ROUNDS fresh processes (5, or
// START_ROUNDS), with the smallest and largest value.
//   node bench/start.ts [other capability dir ...]   (this package, then other checkouts' to compare, e.g.
//   main's: the processes are interleaved, round by round, so a busy machine slows all alike)
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadManifest } from "@selu-catalogue/manifest";
import { imageEnv } from "@selu-catalogue/testkit/conformance";
import { Orchestrator, peakRssMiB, startCapabilityProcess } from "@selu-catalogue/testkit";
import { sampleLetter, sampleReport } from "../test/fixtures/documents.ts";
import { cpuMs } from "./cpu.ts";

const dirs = [fileURLToPath(new URL("..", import.meta.url)), ...process.argv.slice(2).map((d) => resolve(d))];
const ROUNDS = Number(process.env.START_ROUNDS) || 5;
const SCRIPTS = ["مرحبا بالعالم", "नमस्ते दुनिया", "你好，世界", "สวัสดีครับ", "שלום עולם", "😀 🎉"];

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
const REPORT = sampleReport({ images: 0, rows: 40 });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

type Rows = Record<string, number[]>;
const results = new Map<string, Rows>(
  dirs.map((d) => [
    d,
    {
      readyMs: [],
      firstLetterMs: [],
      firstLetterCpuMs: [],
      secondLetterMs: [],
      letterKB: [],
      readyPeakMiB: [],
      idleRssMiB: [],
      firstScriptMs: [],
      rssAfterScriptsMiB: [],
      reportMs: [],
      peakRssMiB: [],
    },
  ]),
);

async function round(dir: string, rows: Rows): Promise<void> {
  const manifest = loadManifest(`${dir}/manifest.yaml`).manifest;
  if (!manifest) throw new Error("manifest.yaml does not parse");
  const env: Record<string, string> = { ...imageEnv(readFileSync(`${dir}/Dockerfile`, "utf8")), LOG_LEVEL: "warn" };
  const started = performance.now();
  const proc = await startCapabilityProcess(dir, { env });
  const orchestrator = new Orchestrator();
  // install() returns once the capability reports ready (health check).
  await orchestrator.install(manifest, proc.address);
  rows.readyMs!.push(performance.now() - started);
  rows.readyPeakMiB!.push(peakRssMiB(proc.child.pid!));
  await new Promise((r) => setTimeout(r, 300));
  rows.idleRssMiB!.push(rssOf(proc.child.pid!));
  const call = async (args: Record<string, unknown>) => {
    const t = performance.now();
    const outcome = await orchestrator.call("catalogue-pdf__create_pdf_document", args);
    return { ms: performance.now() - t, bytes: outcome.ok ? (outcome.result as { size_bytes: number }).size_bytes : Number.NaN };
  };
  const cpuBefore = cpuMs(proc.child.pid!);
  const first = await call(sampleLetter());
  rows.firstLetterCpuMs!.push(cpuMs(proc.child.pid!) - cpuBefore);
  rows.firstLetterMs!.push(first.ms);
  rows.letterKB!.push(first.bytes / 1000);
  rows.secondLetterMs!.push((await call(sampleLetter())).ms);
  const scripts = [];
  for (const text of SCRIPTS) scripts.push((await call({ title: "Scripts", sections: [{ heading: "Text", content: [text] }] })).ms);
  rows.firstScriptMs!.push(median(scripts));
  await new Promise((r) => setTimeout(r, 300));
  rows.rssAfterScriptsMiB!.push(rssOf(proc.child.pid!));
  const reports = [];
  for (let i = 0; i < 3; i++) reports.push((await call(REPORT)).ms);
  rows.reportMs!.push(median(reports));
  rows.peakRssMiB!.push(peakRssMiB(proc.child.pid!));
  await orchestrator.close();
  await proc.stop();
}

for (let r = 0; r < ROUNDS; r++) for (const dir of dirs) await round(dir, results.get(dir)!);
for (const [dir, rows] of results) {
  console.log(`start-up of ${dir} (medians of ${ROUNDS} processes; NaN: the call failed)`);
  for (const [name, values] of Object.entries(rows)) {
    console.log(`  ${name.padEnd(20)} ${median(values).toFixed(1).padStart(7)}  (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`);
  }
}
