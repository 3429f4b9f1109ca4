// `pnpm bench`: the production entrypoint (start script, the image's ENV) on a temporary workspace, called
// through the orchestrator double as Selu calls it: list_directory on 10,000 entries, grep over 200 MB
// (against GNU grep on the same tree in the same run), zip and unzip of 1,000 files; times (median of
// ROUNDS) and the server's peak RSS against the manifest's max_memory_mb. Writes .bench/results.json.
// Exits 0 when a goal fails (FAIL is printed); non-zero only when the bench itself breaks.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadManifest } from "@selu-catalogue/manifest";
import { peakRssMiB } from "@selu-catalogue/testkit/container";
import { imageEnv } from "@selu-catalogue/testkit/conformance";
import { Orchestrator, type ManifestView } from "@selu-catalogue/testkit/orchestrator";
import { startCapabilityProcess } from "@selu-catalogue/testkit/process";

const dir = fileURLToPath(new URL("..", import.meta.url));
const { manifest } = loadManifest(join(dir, "manifest.yaml"));
if (!manifest) throw new Error("manifest.yaml does not parse");
const ROUNDS = 5;
const GREP_GOAL_RATIO = 3;
const workspace = mkdtempSync(join(tmpdir(), "fm-bench-"));

// The data: 10,000 entries in one directory, 200 files of 1 MiB of text with 50 rare needles, 1,000 small files.
mkdirSync(join(workspace, "many"));
for (let i = 0; i < 10_000; i++) writeFileSync(join(workspace, "many", `entry-${String(i).padStart(5, "0")}.txt`), "x".repeat(i % 100));
mkdirSync(join(workspace, "logs", "a"), { recursive: true });
mkdirSync(join(workspace, "logs", "b"));
const words = ["request", "served", "user", "cache", "miss", "hit", "latency", "ms", "status", "200", "upstream", "retry"];
let seed = 1;
const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const line = () => Array.from({ length: 12 }, () => words[Math.floor(rand() * words.length)]).join(" ");
const block = Buffer.from(
  Array.from({ length: 13_000 }, line)
    .join("\n")
    .slice(0, 1024 * 1024 - 1) + "\n",
);
for (let f = 0; f < 200; f++) {
  const content = Buffer.from(block);
  if (f % 4 === 0) content.write("NEEDLE-7f3a found here", 1000 + f * 37);
  writeFileSync(join(workspace, "logs", f % 2 ? "a" : "b", `app-${f}.log`), content);
}
mkdirSync(join(workspace, "small"));
for (let i = 0; i < 1_000; i++) writeFileSync(join(workspace, "small", `f${i}.txt`), `file ${i}\n`.repeat(50));

const env = { ...imageEnv(readFileSync(join(dir, "Dockerfile"), "utf8")), LOG_LEVEL: "warn", WORKSPACE_ROOT: workspace };
const proc = await startCapabilityProcess(dir, { env });
const orchestrator = new Orchestrator();
await orchestrator.install(manifest as ManifestView, proc.address);
const id = manifest.id;

async function timed(tool: string, args: Record<string, unknown>): Promise<{ ms: number; result: Record<string, any> }> {
  const started = performance.now();
  const outcome = await orchestrator.call(`${id}__${tool}`, args);
  if (!outcome.ok) throw new Error(`${tool}: ${outcome.error}`);
  return { ms: performance.now() - started, result: outcome.result };
}
/** Peak RSS since the last call (VmHWM, reset through clear_refs so each phase has its own). */
function phasePeak(): number {
  const peak = peakRssMiB(proc.child.pid!);
  try {
    writeFileSync(`/proc/${proc.child.pid}/clear_refs`, "5");
  } catch {
    // Not permitted: the figures become peaks since start, still an upper bound.
  }
  return peak;
}
async function median(fn: () => Promise<number>): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(await fn());
  return runs.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
}
function gnuGrepMs(args: string[]): { ms: number; lines: number } {
  const started = performance.now();
  const out = execFileSync("grep", args, { cwd: workspace, maxBuffer: 64 * 1024 * 1024 }).toString();
  return { ms: performance.now() - started, lines: out.split("\n").filter(Boolean).length };
}

const idle = phasePeak();
const listName = await median(async () => (await timed("list_directory", { path: "many", limit: 1000 })).ms);
const listSize = await median(async () => (await timed("list_directory", { path: "many", sort: "size", descending: true, limit: 1000 })).ms);
const listPeak = phasePeak();
gnuGrepMs(["-rnF", "NEEDLE-7f3a", "logs"]); // page cache warm for both
const grepCall = await timed("grep", { pattern: "NEEDLE-7f3a", path: "logs", max_matches: 1000 });
const grepMs = await median(async () => (await timed("grep", { pattern: "NEEDLE-7f3a", path: "logs", max_matches: 1000 })).ms);
const gnu = { ms: await median(async () => gnuGrepMs(["-rnF", "NEEDLE-7f3a", "logs"]).ms), lines: gnuGrepMs(["-rnF", "NEEDLE-7f3a", "logs"]).lines };
const grepPeak = phasePeak();
const regexMs = await median(async () => (await timed("grep", { pattern: "NEEDLE-[0-9a-f]+ found", path: "logs", regex: true, max_matches: 1000 })).ms);
const gnuRegexMs = await median(async () => gnuGrepMs(["-rnE", "NEEDLE-[0-9a-f]+ found", "logs"]).ms);
const foldMs = await median(async () => (await timed("grep", { pattern: "needle-7F3A", path: "logs", case_sensitive: false, max_matches: 1000 })).ms);
const gnuFoldMs = await median(async () => gnuGrepMs(["-rniF", "needle-7F3A", "logs"]).ms);
const regexPeak = phasePeak();
let round = 0;
const zipMs = await median(async () => (await timed("zip", { paths: ["small"], destination: `out/small-${round++}.zip` })).ms);
const zipPeak = phasePeak();
let unround = 0;
const unzipMs = await median(async () => (await timed("unzip", { source: "out/small-0.zip", destination: `unzipped-${unround++}` })).ms);
const unzipPeak = phasePeak();
const peak = Math.max(idle, listPeak, grepPeak, regexPeak, zipPeak, unzipPeak);
await orchestrator.close();
await proc.stop();
rmSync(workspace, { recursive: true, force: true });

const ratio = grepMs / gnu.ms;
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
console.log(`file-manager bench (production entrypoint, through the orchestrator double, median of ${ROUNDS})`);
console.log(`  list_directory, 10,000 entries, first 1,000 by name: ${fmt(listName)}; by size (stats all 10,000): ${fmt(listSize)}`);
console.log(`  grep literal over 200 MiB (200 files): ${fmt(grepMs)} (${grepCall.result.matches.length} matches) vs GNU grep -rnF ${fmt(gnu.ms)} (${gnu.lines} lines): ${ratio.toFixed(2)}x`);
console.log(
  `  grep regex: ${fmt(regexMs)} vs GNU grep -rnE ${fmt(gnuRegexMs)}: ${(regexMs / gnuRegexMs).toFixed(2)}x; case-insensitive: ${fmt(foldMs)} vs grep -rniF ${fmt(gnuFoldMs)}: ${(foldMs / gnuFoldMs).toFixed(2)}x`,
);
console.log(`  zip 1,000 files into the workspace: ${fmt(zipMs)}; unzip them: ${fmt(unzipMs)}`);
console.log(
  `  peak RSS (MiB) idle ${idle}, list ${listPeak}, grep literal ${grepPeak}, grep regex/case-insensitive ${regexPeak}, zip ${zipPeak}, unzip ${unzipPeak}; max_memory_mb ${manifest.resources.max_memory_mb}`,
);
const goals = [
  { goal: `grep literal within ${GREP_GOAL_RATIO}x of GNU grep on the same tree`, ok: ratio <= GREP_GOAL_RATIO && grepCall.result.matches.length === gnu.lines, value: `${ratio.toFixed(2)}x` },
  { goal: `peak RSS under max_memory_mb (${manifest.resources.max_memory_mb})`, ok: peak < manifest.resources.max_memory_mb, value: `${peak} MiB` },
];
for (const g of goals) console.log(`${g.ok ? "PASS" : "FAIL"} ${g.goal}: ${g.value}`);
mkdirSync(join(dir, ".bench"), { recursive: true });
writeFileSync(
  join(dir, ".bench", "results.json"),
  JSON.stringify(
    {
      listName,
      listSize,
      grepMs,
      gnu,
      regexMs,
      gnuRegexMs,
      foldMs,
      gnuFoldMs,
      zipMs,
      unzipMs,
      peakRssMiB: { idle, list: listPeak, grep: grepPeak, regex: regexPeak, zip: zipPeak, unzip: unzipPeak },
      goals,
    },
    null,
    2,
  ),
);
