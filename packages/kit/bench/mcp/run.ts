// `pnpm bench` (kit, after the gRPC bench): a tool call over MCP stdio against the same call over gRPC,
// in the same run, the same capability bundle with the production node flags; the load generator is the
// official SDK's client on one side and the generated gRPC client on the other. Prints round trip and
// server CPU per call with ratios (goal: MCP within 1.2x of gRPC, issue 19). Exits 0 when a goal fails.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { freePort, OUT_DIR } from "../children.ts";
import { nodeFlags, productionEnv } from "../flags.ts";
import { connect, invoke, invokeRequest, pollReady } from "../load.ts";
import { fmt, median, percentile, table } from "../stats.ts";
// @ts-expect-error: a plain .mjs script without types (it is also a command-line tool).
import { bundleEntry } from "../../../../scripts/bundle-entry.mjs";

const ROUNDS = 5;
const CALLS = 1_000;
const CONCURRENT = 16;
const GOAL = 1.2;
const TEXT = "hello from the bench";

const dir = join(OUT_DIR, "mcp");
const flags = nodeFlags();
const env = { PATH: process.env.PATH ?? "", ...productionEnv(), LOG_LEVEL: "warn" };

/** The child's CPU time so far (utime + stime of /proc/<pid>/stat), µs. */
function cpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
}

interface Side {
  pid: number;
  /** One call, resolved when its answer is back (fails loudly on a tool error). */
  call(): Promise<void>;
  close(): Promise<void>;
}

async function grpcSide(bundle: string): Promise<Side> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...flags, bundle], { env: { ...env, BENCH_PORT: String(port) }, stdio: "ignore" });
  await pollReady(port, 20, 10_000);
  const client = connect(port);
  const request = invokeRequest("echo", { text: TEXT });
  return {
    pid: child.pid!,
    async call() {
      const res = await invoke(client, request);
      if (res.error) throw new Error(`echo failed over gRPC: ${res.error}`);
    },
    async close() {
      client.close();
      child.kill("SIGKILL");
    },
  };
}

async function mcpSide(bundle: string): Promise<Side> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...flags, bundle, "--mcp", "stdio"], env, stderr: "ignore" });
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  return {
    pid: transport.pid!,
    async call() {
      const res = await client.callTool({ name: "echo", arguments: { text: TEXT } });
      if (res.isError) throw new Error(`echo failed over MCP: ${JSON.stringify(res.content)}`);
    },
    close: () => client.close(),
  };
}

interface Round {
  latencyUs: number[];
  cpuUsPerCallC1: number;
  cpuUsPerCallConcurrent: number;
}

async function round(side: Side): Promise<Round> {
  const latencyUs: number[] = [];
  let before = cpuUs(side.pid);
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await side.call();
    latencyUs.push((performance.now() - t0) * 1000);
  }
  const cpuUsPerCallC1 = (cpuUs(side.pid) - before) / CALLS;
  before = cpuUs(side.pid);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      while (next++ < CALLS) await side.call();
    }),
  );
  return { latencyUs, cpuUsPerCallC1, cpuUsPerCallConcurrent: (cpuUs(side.pid) - before) / CALLS };
}

async function main(): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const source = readFileSync(new URL("child.ts", import.meta.url), "utf8");
  writeFileSync(join(dir, "child.mjs"), stripTypeScriptTypes(source, { mode: "strip" }));
  await bundleEntry({ entry: join(dir, "child.mjs"), outDir: join(dir, "bundle") });
  const bundle = join(dir, "bundle", "child.js");

  const sides = { grpc: await grpcSide(bundle), mcp: await mcpSide(bundle) };
  const rounds: Record<keyof typeof sides, Round[]> = { grpc: [], mcp: [] };
  try {
    for (const side of Object.values(sides)) for (let i = 0; i < 500; i++) await side.call();
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? (["grpc", "mcp"] as const) : (["mcp", "grpc"] as const);
      for (const name of order) rounds[name].push(await round(sides[name]));
    }
  } finally {
    for (const side of Object.values(sides)) await side.close();
  }
  const summary = (name: keyof typeof sides) => {
    const latency = rounds[name].flatMap((r) => r.latencyUs);
    return {
      p50Us: percentile(latency, 0.5),
      p99Us: percentile(latency, 0.99),
      cpuUsPerCallC1: median(rounds[name].map((r) => r.cpuUsPerCallC1)),
      cpuUsPerCallConcurrent: median(rounds[name].map((r) => r.cpuUsPerCallConcurrent)),
    };
  };
  const grpc = summary("grpc");
  const mcp = summary("mcp");
  const spec: [string, keyof typeof grpc, boolean][] = [
    ["tool call round trip p50, sequential (µs)", "p50Us", true],
    ["tool call round trip p99, sequential (µs)", "p99Us", false],
    ["server CPU per call, c=1 (µs)", "cpuUsPerCallC1", true],
    [`server CPU per call, c=${CONCURRENT} (µs)`, "cpuUsPerCallConcurrent", true],
  ];
  const rows = spec.map(([metric, key, goal]) => ({ metric, mcp: mcp[key], grpc: grpc[key], ratio: mcp[key] / grpc[key], goal }));
  console.log(`\nselu kit MCP bench: one echo tool, ${ROUNDS} rounds x ${CALLS} calls per side, server flags: ${flags.join(" ") || "(none)"}\n`);
  console.log(
    table(
      ["metric", "MCP stdio", "gRPC", "ratio (MCP/gRPC)", "goal", "pass/fail"],
      rows.map((r) => [r.metric, fmt(r.mcp), fmt(r.grpc), r.ratio.toFixed(2), r.goal ? `ratio <= ${GOAL}` : "-", r.goal ? (r.ratio <= GOAL ? "pass" : "FAIL") : "-"]),
    ),
  );
  const failed = rows.filter((r) => r.goal && r.ratio > GOAL);
  console.log(failed.length === 0 ? "RESULT: all goals pass" : `RESULT: FAIL (${failed.map((r) => r.metric).join("; ")})`);
  writeFileSync(join(dir, "results.json"), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, flags, rows, grpc, mcp }, null, 2)}\n`);
}

try {
  await main();
} catch (err) {
  console.error("mcp bench broken:", err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
}
