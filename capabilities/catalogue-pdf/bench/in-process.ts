// Renders the side-by-side bench's documents in this process, from the build (dist/), to profile them:
//   node --cpu-prof --max-semi-space-size=1 bench/in-process.ts [report|letter] [rounds]
// (after `./dev build`; add the production flags to see their garbage collection). Prints time per document.
import { sampleLetter, sampleReport } from "../test/fixtures/documents.ts";

type Args = ReturnType<typeof sampleReport> | ReturnType<typeof sampleLetter>;
const { prepareDocument } = (await import(new URL("../dist/document/prepare.js", import.meta.url).href)) as {
  prepareDocument(args: Args, coverage: unknown): unknown;
};
const { coverage } = (await import(new URL("../dist/text/font-runs.js", import.meta.url).href)) as { coverage(): unknown };
const { renderDocument } = (await import(new URL("../dist/render/render-document.js", import.meta.url).href)) as {
  renderDocument(prepared: unknown, images: Map<string, unknown>, options: Record<string, unknown>): Promise<{ bytes: Buffer; pages: number }>;
};

const which = process.argv[2] === "letter" ? "letter" : "report";
const rounds = Number(process.argv[3] ?? 30);
// The side-by-side bench's documents (bench/side-by-side.ts).
const args: Args = which === "report" ? sampleReport({ images: 0, rows: 40 }) : sampleLetter();
const options = {
  pageSize: "A4",
  orientation: "portrait",
  language: args.language,
  tableOfContents: "table_of_contents" in args && args.table_of_contents,
  pageNumbers: true,
  metadata: { title: args.title, creationDate: new Date(0) },
  maxPages: 500,
  maxBytes: 50 << 20,
  signal: new AbortController().signal,
};
const render = () => renderDocument(prepareDocument(args, coverage()), new Map(), options);
for (let i = 0; i < 3; i++) await render();
const started = performance.now();
const cpu = process.cpuUsage();
let last = await render();
for (let i = 1; i < rounds; i++) last = await render();
const used = process.cpuUsage(cpu);
console.log(
  `${which}: ${((performance.now() - started) / rounds).toFixed(1)} ms, ${((used.user + used.system) / 1000 / rounds).toFixed(1)} ms CPU per document; ${last.pages} pages, ${(last.bytes.length / 1024).toFixed(1)} KiB`,
);
