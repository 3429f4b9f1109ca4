// Bytes allocated per document and where (V8's sampling heap profiler, counting objects already collected
// too), rendering the side-by-side bench's documents in this process from the build (dist/):
//   node --max-semi-space-size=2 --max-opt=2 bench/allocations.ts [letter|report] [documents]
// Allocation matters beyond garbage collection: a letter after the process sat idle writes its objects
// to memory no longer in the CPU's caches, and pays for every line of it.
import { Session } from "node:inspector/promises";
import { renderer } from "./render-in-process.ts";

const which = process.argv[2] === "report" ? "report" : "letter";
const documents = Number(process.argv[3] ?? (which === "letter" ? 50 : 5));
const render = renderer(which);
for (let i = 0; i < 20; i++) await render();

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}
const session = new Session();
session.connect();
await session.post("HeapProfiler.enable");
await session.post("HeapProfiler.startSampling", { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
for (let i = 0; i < documents; i++) await render();
const { profile } = (await session.post("HeapProfiler.stopSampling")) as unknown as { profile: { head: Node } };

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
const walk = (node: Node, stack: ReadonlySet<string>) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = `${functionName || "(anonymous)"} ${url.split("/").pop()}:${lineNumber + 1}`;
  const within = new Set(stack).add(name);
  total += node.selfSize;
  self.set(name, (self.get(name) ?? 0) + node.selfSize);
  for (const frame of within) inclusive.set(frame, (inclusive.get(frame) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child, within);
};
walk(profile.head, new Set());
const kib = (bytes: number) => `${(bytes / documents / 1024).toFixed(1).padStart(7)} KiB`;
const top = (sizes: Map<string, number>, count: number) =>
  [...sizes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, bytes]) => `${kib(bytes)}  ${name}`)
    .join("\n");
console.log(`${which}: ${kib(total).trim()} allocated per document (${documents} documents)\n\nby function\n${top(self, 30)}\n\nby function and what it calls\n${top(inclusive, 40)}`);
