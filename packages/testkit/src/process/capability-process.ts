import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { imageLaunch, mountsOf, SELU_PORT, testImageFor } from "../container/image.js";
import { containerEnv } from "./container-env.js";
import { freePort } from "./free-port.js";
import { serverProcess } from "./process-tree.js";

export interface StartOptions {
  /**
   * What the test adds to Selu's environment (proxy variables, a test CA, LOG_LEVEL, or the
   * `SELU_*` variables a ContainerStarter was given); nothing of the host's environment is passed.
   */
  env?: Record<string, string>;
  /** The session of an exclusive container (`SELU_SESSION_ID`); default a fresh UUID. */
  sessionId?: string;
  /** Wrap the command, e.g. to run it under bubblewrap as uid 1000. */
  wrap?: (command: string[]) => string[];
  /** Receives each stdout line (JSON logs). */
  onLog?: (line: string) => void;
}

/** A capability running its production entrypoint in a child process. */
export interface CapabilityProcess {
  readonly address: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM to the server process, then the exit code (SIGKILL after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<number | null>;
}

/**
 * Starts `capabilities/<dir>`'s `start` script (the same command the Dockerfile runs) on a free
 * loopback-reachable port, with Selu's environment only ({@link containerEnv}). The script is run by
 * `sh -c exec`, so signals reach node itself.
 */
export async function startCapabilityProcess(dir: string, options: StartOptions = {}): Promise<CapabilityProcess> {
  const start = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts?: { start?: string } }).scripts?.start;
  if (!start) throw new Error(`${dir}/package.json has no start script`);
  // `./dev images`: the built image instead of the checkout, as Selu runs it (its CMD, port 50051, its env).
  const image = testImageFor(dir);
  const seluContainerEnv = containerEnv(dir, options.env, options.sessionId === undefined ? {} : { sessionId: options.sessionId });
  const launch = image ? imageLaunch(image, seluContainerEnv, options.wrap ? mountsOf(options.wrap(["true"])) : {}) : undefined;
  const port = launch ? SELU_PORT : await freePort();
  const command = ["sh", "-c", `exec ${start}`];
  const [file, ...args] = launch ? launch.command : options.wrap ? options.wrap(command) : command;
  const child = spawn(file!, args, {
    cwd: dir,
    env: launch ? process.env : { ...seluContainerEnv, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let pending = "";
  child.stdout!.on("data", (data: Buffer) => {
    const text = data.toString("utf8");
    output += text;
    pending += text;
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) options.onLog?.(line);
  });
  child.stderr!.on("data", (data: Buffer) => (output += data.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  if (launch) void exited.then(() => launch.cleanup());
  return {
    address: `127.0.0.1:${port}`,
    port,
    child,
    output: () => output,
    async stop(timeoutMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      try {
        process.kill(serverProcess(child.pid!), "SIGTERM");
      } catch (err) {
        // The server died on its own (an OOM kill) and was reaped between the lookup and the signal:
        // its sandbox wrapper exits next, or the SIGKILL below ends it.
        if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
      }
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
