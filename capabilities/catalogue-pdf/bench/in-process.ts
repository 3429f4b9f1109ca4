// Renders the side-by-side bench's documents in this process, from the build (dist/), to profile them:
//   node --cpu-prof --max-semi-space-size=1 bench/in-process.ts [report|letter|new-words] [rounds]
// (after `./dev build`; add the production flags to see their garbage collection). Prints time per document.
import { renderer } from "./render-in-process.ts";

const which = process.argv[2] === "letter" || process.argv[2] === "new-words" ? process.argv[2] : "report";
const rounds = Number(process.argv[3] ?? 30);
const render = renderer(which);
for (let i = 0; i < (which === "new-words" ? 50 : 3); i++) await render();
const started = performance.now();
const cpu = process.cpuUsage();
let last = await render();
for (let i = 1; i < rounds; i++) last = await render();
const used = process.cpuUsage(cpu);
console.log(
  `${which}: ${((performance.now() - started) / rounds).toFixed(1)} ms, ${((used.user + used.system) / 1000 / rounds).toFixed(2)} ms CPU per document; ${last.pages} pages, ${(last.bytes.length / 1024).toFixed(1)} KiB`,
);
