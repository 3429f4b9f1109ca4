// Where a server's CPU goes per call, from a --cpu-prof profile (bench/ab.ts --profile writes them): self
// time by package, by module and by function, each server beside the first. Bundled code is mapped back
// to its module by the `// path` comment the bundler writes before each one.
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

/** One server's profile, and the CPU it used per call over the profile's whole run. */
export interface ProfiledRun {
  name: string;
  file: string;
  cpuUsPerCall: number;
}

const modules = new Map<string, { line: number; name: string }[]>();

/** The module a bundled line came from, by the `// path` comment the bundler writes before each module. */
function moduleAt(url: string, line: number): string {
  let starts = modules.get(url);
  if (!starts) {
    starts = [];
    const lines = readFileSync(new URL(url), "utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const m = /^\/\/ (\S+\.(?:m?js|json))$/.exec(lines[i]!);
      if (m) starts.push({ line: i, name: m[1]! });
    }
    modules.set(url, starts);
  }
  let name = "?";
  for (const s of starts) if (s.line <= line) name = s.name;
  const pkg = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(name);
  return pkg ? `${pkg[1]}/${pkg[2]!.replace(/^(build\/src|dist\/cjs|dist\/esm|build|dist|lib)\//, "")}` : name.replace(/^.*\/(dist|servers)\//, "$1/");
}

function where(node: ProfileNode): string {
  const { url, lineNumber } = node.callFrame;
  if (url.startsWith("file:")) return moduleAt(url, lineNumber);
  if (url.startsWith("node:")) return url;
  return url === "" ? `(${node.callFrame.functionName || "native"})` : url;
}

const pkgOf = (node: ProfileNode) => {
  const w = where(node);
  return w.startsWith("node:") ? "node" : w.startsWith("@") ? w.split("/").slice(0, 2).join("/") : w.split("/")[0]!;
};

/**
 * Self time per key, in µs of CPU per call: each key's share of the busy samples times the CPU the process
 * used per call. Samples, not the recorded time deltas: on a busy host one delta can span a whole
 * descheduled stretch and land on whatever frame was sampled next.
 */
function selfTimes(profile: Profile, key: (node: ProfileNode) => string, cpuUsPerCall: number): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === "(idle)") continue;
    busy++;
    const k = key(node);
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  for (const [k, v] of out) out.set(k, (v / busy) * cpuUsPerCall);
  return out;
}

const fn = (n: ProfileNode) => `${n.callFrame.functionName || "(anonymous)"} ${where(n)}`;

/** Prints the tables: µs of CPU per call, each run beside the first one and the difference. */
export function printProfiles(runs: readonly ProfiledRun[], top = { packages: 16, modules: 30, functions: 45 }): void {
  const profiles = runs.map((r) => JSON.parse(readFileSync(r.file, "utf8")) as Profile);
  for (const [title, key, count] of [
    ["package", pkgOf, top.packages],
    ["module", where, top.modules],
    ["function", fn, top.functions],
  ] as const) {
    const times = profiles.map((p, i) => selfTimes(p, key, runs[i]!.cpuUsPerCall));
    const keys = [...new Set(times.flatMap((t) => [...t.keys()]))];
    const gap = (k: string) => Math.abs((times.at(-1)!.get(k) ?? 0) - (times[0]!.get(k) ?? 0));
    keys.sort((a, b) => gap(b) - gap(a));
    console.log(`\nCPU per call by ${title} (µs, self time; sorted by the gap between ${runs.at(-1)!.name} and ${runs[0]!.name}):`);
    console.log(`${runs.map((r) => r.name.slice(0, 8).padStart(8)).join(" ")} ${"gap".padStart(8)}`);
    for (const k of keys.slice(0, count)) {
      const cells = times.map((t) => (t.get(k) ?? 0).toFixed(1).padStart(8));
      console.log(`${cells.join(" ")} ${((times.at(-1)!.get(k) ?? 0) - (times[0]!.get(k) ?? 0)).toFixed(1).padStart(8)}  ${k}`);
    }
  }
}
