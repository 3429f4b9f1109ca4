// A one-page letter's cost by what came before it, ours and (with PEER_PDF_SERVER) Selu's pdf agent, the
// two processes interleaved round by round: back to back with another letter, after 300 ms idle, right
// after a 20-page report, after one and 300 ms idle (the side-by-side bench's rounds mix the last two), and
// after a letter and 300 ms idle a letter whose words are new (as the side-by-side bench's). Medians of
// ROUNDS (25): wall time end to end, the server's CPU (its main thread, and all its threads), and the
// orchestrator double's own CPU in this process.
//   node bench/letter-after.ts
// LONG_IDLE_MS=4000 adds a letter after that much idle, as after a model's turn in Selu (the idle memory
// collection of the kit runs after 2 s of it; both sides then pay more than after 300 ms).
import { letterWithNewWords, sampleLetter, sampleReport } from "../test/fixtures/documents.ts";
import { cpuMs, threadCpuMs } from "./cpu.ts";
import { startOurs } from "./ours.ts";
import { peerSource, startPeer, toPeerArgs } from "./peer.ts";

const ROUNDS = Number(process.env.ROUNDS) || 25;
const IDLE_MS = 300;
type Doc = Parameters<typeof toPeerArgs>[0];
const letter = sampleLetter() as Doc;
const report = sampleReport({ images: 0, rows: 40 }) as Doc;

const peer = peerSource();
if ("skip" in peer) console.log(`peer skipped: ${peer.skip}`);
const asIs = (doc: Doc) => doc as Record<string, unknown>;
const sides = [{ name: "ours", side: await startOurs(), letter: asIs(letter), report: asIs(report), args: asIs }];
if ("path" in peer) sides.push({ name: "peer", side: await startPeer(peer.path), letter: toPeerArgs(letter), report: toPeerArgs(report), args: toPeerArgs });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
type Side = (typeof sides)[number];
/** The letter's figures: wall, server main thread, server in all, the double. */
async function measured({ side, letter }: Pick<Side, "side" | "letter">): Promise<number[]> {
  const before = [performance.now(), threadCpuMs(side.pid), cpuMs(side.pid), ownCpuMs()];
  const outcome = await side.call(letter);
  if (!outcome.ok) throw new Error(`the letter failed: ${JSON.stringify(outcome)}`);
  const after = [performance.now(), threadCpuMs(side.pid), cpuMs(side.pid), ownCpuMs()];
  return after.map((value, i) => value - before[i]!);
}
/** The round being run: both sides' letter with new words has the same words in a round. */
let round = 0;
const cases: Record<string, (s: Side) => Promise<number[]>> = {
  "back to back": async (s) => (await s.side.call(s.letter), measured(s)),
  [`after ${IDLE_MS} ms idle`]: async (s) => (await s.side.call(s.letter), await sleep(IDLE_MS), measured(s)),
  "right after a report": async (s) => (await s.side.call(s.report), measured(s)),
  [`after a report and ${IDLE_MS} ms idle`]: async (s) => (await s.side.call(s.report), await sleep(IDLE_MS), measured(s)),
  // Words the process has not laid out before (each round its own), as in the side-by-side bench.
  [`new words, after ${IDLE_MS} ms idle`]: async (s) => (await s.side.call(s.letter), await sleep(IDLE_MS), measured({ side: s.side, letter: s.args(letterWithNewWords(round) as Doc) })),
};
const LONG_IDLE_MS = Number(process.env.LONG_IDLE_MS) || 0;
if (LONG_IDLE_MS) cases[`after ${LONG_IDLE_MS} ms idle`] = async (s) => (await s.side.call(s.letter), await sleep(LONG_IDLE_MS), measured(s));

for (const s of sides) for (let i = 0; i < 5; i++) await s.side.call(s.report), await s.side.call(s.letter);
const figures = new Map<string, number[][]>();
for (round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(cases)) {
    for (const s of round % 2 === 0 ? sides : [...sides].reverse()) {
      const key = `${name}|${s.name}`;
      figures.set(key, [...(figures.get(key) ?? []), await run(s)]);
    }
  }
}
for (const s of sides) await s.side.stop();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`one-page letter, medians of ${ROUNDS} (ms): wall | server main thread | server, all threads | orchestrator double`);
for (const name of Object.keys(cases)) {
  const row = sides.map((s) => {
    const runs = figures.get(`${name}|${s.name}`)!;
    // The peer's main thread is not told apart from its gRPC threads: its process's figure stands for both.
    const [wall, main, all, double] = [0, 1, 2, 3].map((i) => median(runs.map((r) => r[i]!)).toFixed(2));
    return `${s.name} ${wall} | ${s.name === "peer" ? "-" : main} | ${all} | ${double}`;
  });
  console.log(`${name.padEnd(32)} ${row.join("    ")}`);
}
