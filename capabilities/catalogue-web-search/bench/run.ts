// `pnpm bench`: fetch_page on the largest fixture (a 2 MB article) and web_search at concurrency 8,
// through the production entrypoint (the start script, with the image's ENV and Selu's proxy variables)
// behind the orchestrator double and the egress proxy double, against local HTTPS doubles of the
// providers and a page server. Baselines measured in the same run: the same 2 MB body served as plain
// text (fetch, proxy and gRPC without extraction), extraction in this process (parse, Readability or the
// large-page path, conversion), and the provider double called directly through the proxy with the kit's
// client. Prints figures, ratios and goals; writes .bench/results.json. Exits 0 when a goal fails (FAIL).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createHttpClient, proxyFromEnv } from "@selu-catalogue/kit/egress";
import { loadManifest } from "@selu-catalogue/manifest";
import { imageEnv } from "@selu-catalogue/testkit/conformance";
import { Orchestrator, createTestCa, peakRssMiB, startCapabilityProcess, startEgressProxy, startHttpsServer } from "@selu-catalogue/testkit";
import { bigArticle } from "../test/fixtures/big-article.ts";
import { braveSuccess, handle, providerDouble } from "../test/support/provider-doubles.ts";

const dir = fileURLToPath(new URL("..", import.meta.url));
const { manifest } = loadManifest(`${dir}/manifest.yaml`);
if (!manifest) throw new Error("manifest.yaml does not parse");
const id = manifest.id;
const memoryLimit = manifest.resources.max_memory_mb;
const maxConcurrent = manifest.sharing.max_concurrent;
const ROUNDS = 7;
const GOAL_EXTRACT_MS = 300;
const SEARCH_CALLS = 200;

const article = bigArticle(2 * 1024 * 1024);
const ca = createTestCa();
const brave = providerDouble(braveSuccess);
const braveServer = await startHttpsServer(ca.issue(["api.search.brave.com"]), handle(brave));
const pageServer = await startHttpsServer(ca.issue(["big.example.com"]), (req, res) => {
  if (req.url === "/plain") return res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(article);
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(article);
});
const proxy = await startEgressProxy({ policy: manifest.network, capability: id });
proxy.map("api.search.brave.com:443", `127.0.0.1:${braveServer.port}`);
proxy.map("big.example.com:443", `127.0.0.1:${pageServer.port}`);
const caFile = await ca.writeCertFile();
const env = { ...imageEnv(readFileSync(`${dir}/Dockerfile`, "utf8")), ...proxy.env, NODE_EXTRA_CA_CERTS: caFile, LOG_LEVEL: "warn" };

async function server() {
  const proc = await startCapabilityProcess(dir, { env });
  const orchestrator = new Orchestrator({ credentials: { [id]: { BRAVE_API_KEY: "BSA-bench" } } });
  await orchestrator.install(manifest as never, proc.address);
  const call = async (tool: string, args: Record<string, unknown>) => {
    const started = performance.now();
    const outcome = await orchestrator.call(`${id}__${tool}`, args);
    if (!outcome.ok) throw new Error(outcome.error);
    return performance.now() - started;
  };
  return { call, peakRss: () => peakRssMiB(proc.child.pid!), stop: async () => (await orchestrator.close(), await proc.stop()) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => n.toFixed(0);
const times = async (n: number, f: () => Promise<number>) => {
  await f(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await f());
  return median(out);
};

// In-process extraction of the same article (the built module the bundle is made from).
const { extractHtml } = (await import(`${dir}/dist/fetch/html-extract.js`)) as typeof import("../src/fetch/html-extract.ts");
const url = new URL("https://big.example.com/article");
// CPU time besides wall time: on a shared machine the wall clock also counts other processes' turns.
const cpuMs = () => ((u) => (u.user + u.system) / 1000)(process.cpuUsage());
const extract = (format: "markdown" | "text") => {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i <= ROUNDS; i++) {
    const [t, c] = [performance.now(), cpuMs()];
    extractHtml(article, url, format, 20_001);
    if (i > 0) wall.push(performance.now() - t), cpu.push(cpuMs() - c); // the first run warms up
  }
  return { wallMs: median(wall), cpuMs: median(cpu) };
};
const inProcess = { markdown: extract("markdown"), text: extract("text") };

// Through the production entrypoint, one call at a time.
const s = await server();
const idleRss = s.peakRss();
const call = {
  plainBaseline: await times(ROUNDS, () => s.call("fetch_page", { url: "https://big.example.com/plain" })),
  markdown: await times(ROUNDS, () => s.call("fetch_page", { url: "https://big.example.com/article" })),
  text: await times(ROUNDS, () => s.call("fetch_page", { url: "https://big.example.com/article", format: "text" })),
};
const sequentialRss = s.peakRss();

// Searches: SEARCH_CALLS calls, 8 at a time, against the Brave double; baseline: the same requests
// straight through the proxy with the kit's client (no gRPC, no capability).
async function atConcurrency8(f: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < SEARCH_CALLS) await f(next++);
    }),
  );
  return (SEARCH_CALLS * 1000) / (performance.now() - started);
}
const search = await atConcurrency8((i) => s.call("web_search", { query: `bench ${i}`, count: 10 }));
const http = createHttpClient({ proxy: proxyFromEnv(proxy.env), ca: ca.certPem, timeouts: { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000 }, maxResponseBytes: 1 << 20 });
const rawSearch = await atConcurrency8((i) => http.fetchJson(`https://api.search.brave.com/res/v1/web/search?q=bench+${i}&count=10`, { headers: { "x-subscription-token": "BSA-bench" } }));
await http.close();
await s.stop();

// Peak RSS with n page reads of the 2 MB article at once, each level in a fresh server.
const levels = [...new Set([1, maxConcurrent, 8])].sort((a, b) => a - b);
const concurrent: { n: number; peakRssMiB: number; wallMs: number }[] = [];
for (const n of levels) {
  const c = await server();
  await c.call("fetch_page", { url: "https://big.example.com/article" });
  const started = performance.now();
  await Promise.all(Array.from({ length: n }, (_, i) => c.call("fetch_page", { url: "https://big.example.com/article", format: i % 2 ? "text" : "markdown" })));
  concurrent.push({ n, peakRssMiB: c.peakRss(), wallMs: performance.now() - started });
  await c.stop();
}
await proxy.close();
await braveServer.close();
await pageServer.close();

console.log(`web-search bench (production entrypoint, median of ${ROUNDS}, through the orchestrator double and the egress proxy double)`);
console.log(
  `  2 MB article, extraction in process: markdown ${fmt(inProcess.markdown.wallMs)} ms (${fmt(inProcess.markdown.cpuMs)} ms CPU), text ${fmt(inProcess.text.wallMs)} ms (${fmt(inProcess.text.cpuMs)} ms CPU)`,
);
console.log(
  `  fetch_page call: markdown ${fmt(call.markdown)} ms, text ${fmt(call.text)} ms; baseline (same 2 MB as text/plain) ${fmt(call.plainBaseline)} ms; ratio ${(call.markdown / call.plainBaseline).toFixed(1)}x`,
);
console.log(
  `  web_search at concurrency 8: ${fmt(search)} calls/s; baseline (the provider double through the proxy, no capability) ${fmt(rawSearch)} requests/s; ratio ${(search / rawSearch).toFixed(2)}`,
);
console.log(`  peak RSS: idle ${idleRss} MiB, after the sequential runs ${sequentialRss} MiB`);
console.log("  2 MB reads at once | peak RSS MiB | wall ms");
for (const c of concurrent) console.log(`  ${String(c.n).padStart(18)} | ${String(c.peakRssMiB).padStart(12)} | ${fmt(c.wallMs).padStart(7)}${c.n === maxConcurrent ? "  <- max_concurrent" : ""}`);
const atMax = concurrent.find((c) => c.n === maxConcurrent)!;
const goals = [
  {
    goal: `2 MB article extracted under ${GOAL_EXTRACT_MS} ms (in process, markdown, wall clock)`,
    ok: inProcess.markdown.wallMs < GOAL_EXTRACT_MS,
    value: `${fmt(inProcess.markdown.wallMs)} ms, ${fmt(inProcess.markdown.cpuMs)} ms CPU`,
  },
  { goal: `peak RSS with max_concurrent (${maxConcurrent}) reads under max_memory_mb (${memoryLimit})`, ok: atMax.peakRssMiB < memoryLimit, value: `${atMax.peakRssMiB} MiB` },
];
for (const g of goals) console.log(`${g.ok ? "PASS" : "FAIL"} ${g.goal}: ${g.value}`);
mkdirSync(`${dir}/.bench`, { recursive: true });
writeFileSync(`${dir}/.bench/results.json`, JSON.stringify({ inProcess, call, search, rawSearch, idleRss, sequentialRss, concurrent, goals }, null, 2));
