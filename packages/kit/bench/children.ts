// Server children: built to plain JS, spawned with the bench's node flags, asked for reports over IPC.
import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { stripTypeScriptTypes } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChildMessage, Report } from "./protocol.ts";
import { productionEnv } from "./flags.ts";
// @ts-expect-error: a plain .mjs script without types (it is also a command-line tool).
import { bundleEntry } from "../../../scripts/bundle-entry.mjs";

export type ServerKind = "kit" | "bare";

const here = dirname(fileURLToPath(import.meta.url));
/** packages/kit/.bench: gitignored; results and the JS build of the children go there. */
export const OUT_DIR = join(here, "..", ".bench");
const SERVERS_SRC = join(here, "servers");
const SERVERS_OUT = join(OUT_DIR, "servers");
const BUNDLES_OUT = join(OUT_DIR, "bundles");

/**
 * Writes the child entrypoints as plain .mjs (types stripped, local .ts imports renamed) beside the
 * package, then bundles each as capabilities ship (scripts/bundle-entry.mjs): both servers get the
 * same treatment, so spawn-to-ready compares the code each one loads, not the number of files. Running
 * the .ts directly would load Node's TypeScript stripper in every child: about +17 MiB RSS and +25 ms
 * start-up that production never pays.
 */
export async function buildChildren(): Promise<void> {
  mkdirSync(SERVERS_OUT, { recursive: true });
  // stripTypeScriptTypes is marked experimental: keep its one-time warning out of the bench output.
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning).includes("stripTypeScriptTypes")) Reflect.apply(emitWarning, process, [warning, ...rest]);
  }) as typeof process.emitWarning;
  try {
    for (const name of readdirSync(SERVERS_SRC)) {
      if (!name.endsWith(".ts")) continue;
      const js = stripTypeScriptTypes(readFileSync(join(SERVERS_SRC, name), "utf8"), { mode: "strip" })
        // Relative imports only; protocol.ts is imported as types and already gone.
        .replace(/(from\s+["']\.\.?\/[^"']+)\.ts(["'])/g, "$1.mjs$2");
      writeFileSync(join(SERVERS_OUT, name.replace(/\.ts$/, ".mjs")), js);
    }
  } finally {
    process.emitWarning = emitWarning;
  }
  for (const kind of ["kit", "bare"] as const) {
    await bundleEntry({ entry: join(SERVERS_OUT, `${kind}-server.mjs`), outDir: join(BUNDLES_OUT, kind) });
  }
}

/** A free loopback port (bound and released; the child binds it next). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** A bench server in its own process: started with `flags`, asked for reports over IPC. */
export class ServerChild {
  /** "kit", "bare", or a name given to another bundle (bench/ab.ts). */
  readonly kind: string;
  readonly port: number;
  readonly process: ChildProcess;
  readonly spawnedAt: number;
  /** Lines the child wrote to stderr (warnings such as MaxListenersExceededWarning end up here). */
  readonly stderr: string[] = [];
  readonly listening: Promise<number>;
  #nextId = 1;
  readonly #pending = new Map<number, (report: Report) => void>();
  #exited = false;

  /** `entry` defaults to the bundle of the `kind` ("kit" or "bare") that buildChildren() made. */
  constructor(kind: string, port: number, flags: readonly string[], entry = join(BUNDLES_OUT, kind, `${kind}-server.js`)) {
    this.kind = kind;
    this.port = port;
    this.spawnedAt = performance.now();
    this.process = fork(entry, [], {
      execArgv: [...flags],
      env: { ...process.env, ...productionEnv(), BENCH_PORT: String(port), NODE_OPTIONS: "", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    this.process.stdout!.setEncoding("utf8").on("data", (text: string) => this.stderr.push(...lines(text, "stdout")));
    this.process.stderr!.setEncoding("utf8").on("data", (text: string) => this.stderr.push(...lines(text, "stderr")));
    this.process.once("exit", () => (this.#exited = true));
    this.listening = new Promise((resolve, reject) => {
      this.process.once("exit", (code, signal) => reject(new Error(`${kind} server exited early (${code ?? signal}): ${this.stderr.join(" | ")}`)));
      this.process.on("message", (msg: ChildMessage) => {
        if (msg.type === "listening") resolve(msg.port);
        else if (msg.type === "report") {
          this.#pending.get(msg.id)?.(msg);
          this.#pending.delete(msg.id);
        }
      });
    });
    this.listening.catch(() => {});
  }

  get pid(): number {
    return this.process.pid!;
  }

  /** The child's own CPU time and memory now. */
  report(timeoutMs = 5_000): Promise<Report> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${this.kind} server did not report within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, (report) => {
        clearTimeout(timer);
        resolve(report);
      });
      this.process.send({ type: "report", id });
    });
  }

  /** Peak resident set size from the kernel (VmHWM), bytes. */
  vmHwm(): number {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pid}/status`, "utf8"));
    if (!match) throw new Error("no VmHWM");
    return Number(match[1]) * 1024;
  }

  /**
   * Ends the child by closing its IPC channel (it exits on disconnect, so a --cpu-prof profile gets
   * written), or with SIGKILL if it has not exited 2 s later.
   */
  async stop(): Promise<void> {
    if (this.#exited) return;
    const exited = once(this.process, "exit");
    if (this.process.connected) this.process.disconnect();
    const timer = setTimeout(() => this.process.kill("SIGKILL"), 2_000);
    await exited;
    clearTimeout(timer);
  }
}

function lines(text: string, stream: string): string[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => `${stream}: ${l}`);
}
