// The memory a letter touches after 300 ms idle, ours and (with PEER_PDF_SERVER) Selu's pdf agent: on this
// VM the first touch of a 4 KiB page after idle costs 2.3-2.9 µs, so a call's cost after idle follows the
// pages it touches (README, "Why after idle"). The kernel's Referenced bits are cleared (`clear_refs`)
// after the idle, and the pages referenced by the end of the letter are summed per mapping from `smaps`.
// Medians of ROUNDS (15) letters with new words; SAME=1 sends the same letter each time instead, and
// BAD_ARGS=1 a call refused at its arguments (the gRPC path alone). Needs root (clear_refs of another process).
//   node bench/pages.ts
import { readFileSync, writeFileSync } from "node:fs";
import { letterWithNewWords, sampleLetter } from "../test/fixtures/documents.ts";
import { startOurs } from "./ours.ts";
import { peerSource, startPeer, toPeerArgs } from "./peer.ts";

const ROUNDS = Number(process.env.ROUNDS) || 15;
const IDLE_MS = 300;
type Doc = Parameters<typeof toPeerArgs>[0];
const refused = process.env.BAD_ARGS ? { title: " ", sections: [] } : undefined;
const letterOf = process.env.SAME ? () => sampleLetter() as Doc : (round: number) => letterWithNewWords(round) as Doc;

const peer = peerSource();
if ("skip" in peer) console.log(`peer skipped: ${peer.skip}`);
const sides = [{ name: "ours", side: await startOurs(), args: (doc: Doc) => refused ?? (doc as Record<string, unknown>) }];
if ("path" in peer) sides.push({ name: "peer", side: await startPeer(peer.path), args: (doc: Doc) => refused ?? toPeerArgs(doc) });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** KiB referenced per kind of mapping: the binary's or a library's code and data, V8's heap pages, malloc's heap, other anonymous memory. */
function referenced(pid: number): Map<string, number> {
  const kinds = new Map<string, number>();
  let kind = "";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const kib = (Number.parseInt(head[2]!, 16) - Number.parseInt(head[1]!, 16)) / 1024;
      const name = head[4]!.split("/").pop() || (kib === 256 ? "V8 heap page" : "anonymous");
      kind = `${name} ${head[3]}`;
      continue;
    }
    const count = /^Referenced:\s+(\d+) kB/.exec(line);
    if (count) kinds.set(kind, (kinds.get(kind) ?? 0) + Number(count[1]));
  }
  return kinds;
}

let round = 0;
for (const s of sides) for (let i = 0; i < 10; i++) await s.side.call(s.args(letterOf(++round)));
const totals = new Map<string, number[]>();
const byKind = new Map<string, Map<string, number>>();
for (let r = 0; r < ROUNDS; r++) {
  for (const s of r % 2 === 0 ? sides : [...sides].reverse()) {
    const letter = s.args(letterOf(++round));
    await s.side.call(s.args(letterOf(++round)));
    await sleep(IDLE_MS);
    writeFileSync(`/proc/${s.side.pid}/clear_refs`, "1");
    await s.side.call(letter);
    const kinds = referenced(s.side.pid);
    totals.set(s.name, [...(totals.get(s.name) ?? []), [...kinds.values()].reduce((a, b) => a + b, 0)]);
    const sum = byKind.get(s.name) ?? new Map<string, number>();
    for (const [k, v] of kinds) sum.set(k, (sum.get(k) ?? 0) + v / ROUNDS);
    byKind.set(s.name, sum);
  }
}
for (const s of sides) await s.side.stop();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mib = (kib: number) => `${(kib / 1024).toFixed(2)} MiB`;
console.log(
  `memory touched by ${refused ? "a call refused at its arguments" : process.env.SAME ? "the same letter" : "a letter with new words"} after ${IDLE_MS} ms idle (medians of ${ROUNDS}; by kind, means)`,
);
for (const s of sides) {
  const kinds = [...byKind.get(s.name)!].filter(([, kib]) => kib >= 64).sort((a, b) => b[1] - a[1]);
  console.log(`  ${s.name}: ${mib(median(totals.get(s.name)!))}: ${kinds.map(([k, kib]) => `${k} ${mib(kib)}`).join(", ")}`);
}
