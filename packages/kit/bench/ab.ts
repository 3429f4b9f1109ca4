// `node bench/ab.ts <name>=<bundle.js> ... [--rounds N] [--ms N] [--c N] [--profile]`: server CPU per
// echo call and calls/s of several server bundles, the first one the reference. Each round runs one
// phase against every server, in rotating order, so the host's drift lands on all of them alike; the
// paired figure is the median of the rounds' own ratios. For a change to the kit: bundle a kit server
// before and after it (`node ../../scripts/bundle-entry.mjs`'s bundleEntry on
// .bench/servers/kit-server.mjs, which `pnpm bench` writes) and pass both, with the bare one first.
// With --profile, each server runs under --cpu-prof and where its CPU went is printed per call. With
// --download <bytes>, each call downloads an artifact of that size (a one-page PDF is ~16 KiB) instead of an echo.
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort, OUT_DIR, ServerChild } from "./children.ts";
import { nodeFlags } from "./flags.ts";
import { connect, download, invokeRequest, latency, makeArtifact, repeat, throughput } from "./load.ts";
import { printProfiles } from "./profile-summary.ts";
import { median } from "./stats.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "20" },
    ms: { type: "string", default: "800" },
    c: { type: "string", default: "64" },
    profile: { type: "boolean", default: false },
    download: { type: "string" },
  },
});
const rounds = Number(values.rounds);
const phaseMs = Number(values.ms);
const concurrency = Number(values.c);
const echo = invokeRequest("echo", { text: "hello from the bench" });
const profileDir = (name: string) => join(OUT_DIR, "profiles", name);

const servers: ServerChild[] = [];
for (const arg of positionals) {
  const [name, entry] = arg.split("=");
  if (!name || !entry) throw new Error(`expected <name>=<bundle.js>, got ${JSON.stringify(arg)}`);
  const flags = [...nodeFlags()];
  if (values.profile) {
    rmSync(profileDir(name), { recursive: true, force: true });
    flags.push("--cpu-prof", `--cpu-prof-dir=${profileDir(name)}`, "--cpu-prof-interval=250");
  }
  const child = new ServerChild(name, await freePort(), flags, entry);
  await child.listening;
  servers.push(child);
}
const clients = servers.map((s) => connect(s.port));
// Calls served in all, warm-up included: a profile covers them all.
const served = servers.map(() => 0);
for (let i = 0; i < servers.length; i++) {
  served[i]! += (await latency(clients[i]!, echo, 500, 10_000)).length;
  served[i]! += (await throughput(clients[i]!, echo, concurrency, 1_500, 100_000)).calls;
}
// The call each phase repeats: an echo, or a download of one artifact made now.
const calls = await Promise.all(
  clients.map(async (client) => {
    if (values.download === undefined) return () => throughput(client, echo, concurrency, phaseMs, 1_000_000);
    const id = await makeArtifact(client, Number(values.download));
    return () => repeat(() => download(client, id), concurrency, phaseMs, 1_000_000);
  }),
);
// A download's own code runs once before the rounds, as the echo's did above.
if (values.download !== undefined) for (let i = 0; i < calls.length; i++) served[i]! += (await calls[i]!()).calls;
const cpu: number[][] = servers.map(() => []);
const rate: number[][] = servers.map(() => []);
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < servers.length; k++) {
    const i = (k + r) % servers.length;
    const before = await servers[i]!.report();
    const t = await calls[i]!();
    const after = await servers[i]!.report();
    cpu[i]!.push((after.userUs + after.systemUs - before.userUs - before.systemUs) / t.calls);
    rate[i]!.push(t.perSecond);
    served[i]! += t.calls;
  }
}
console.log(
  `${values.download === undefined ? "echo" : `downloads of ${values.download} bytes`}, c=${concurrency}, ${rounds} rounds of ${phaseMs} ms; paired: the median of each round's ratio to ${servers[0]!.kind}`,
);
for (let i = 0; i < servers.length; i++) {
  const paired = (xs: number[][]) => median(xs[i]!.map((x, r) => x / xs[0]![r]!)).toFixed(3);
  console.log(
    `${servers[i]!.kind.padEnd(12)} CPU/call ${median(cpu[i]!).toFixed(1).padStart(6)} µs (paired ${paired(cpu)})  ` +
      `calls/s ${median(rate[i]!).toFixed(0).padStart(5)} (paired ${paired(rate)})  rounds: ${cpu[i]!.map((x) => x.toFixed(0)).join(" ")}`,
  );
}
for (const client of clients) client.close();
const totals = await Promise.all(servers.map((s) => s.report()));
await Promise.all(servers.map((s) => s.stop()));
if (values.profile) {
  printProfiles(
    servers.map((s, i) => {
      const dir = profileDir(s.kind);
      return { name: s.kind, file: join(dir, readdirSync(dir).sort().at(-1)!), cpuUsPerCall: (totals[i]!.userUs + totals[i]!.systemUs) / served[i]! };
    }),
  );
}
