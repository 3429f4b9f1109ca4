// A real MCP client (the official SDK's) connected to a capability served with `--mcp stdio` or
// `--mcp http` (issue 19), for tests that meet a capability as MCP hosts do.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { freePort } from "../process/free-port.js";

export type McpTransportKind = "stdio" | "http";

export interface McpConnectOptions {
  /** The command that starts the server, without the `--mcp ...` arguments (see {@link startCommand}). */
  command: readonly string[];
  cwd?: string;
  /** Added to a minimal environment (PATH, HOME): credentials, proxy variables, LOG_LEVEL. */
  env?: Record<string, string>;
  /** Arguments after `--mcp <transport>`, e.g. `["--config", file]`. */
  args?: readonly string[];
  /**
   * Over stdio: `command` already ends with `--mcp stdio` and takes no more arguments (a sandbox script
   * that wraps the whole command line), so nothing is appended.
   */
  complete?: boolean;
}

/** A connected client and the server process behind it. */
export interface McpConnection {
  readonly client: Client;
  readonly transport: McpTransportKind;
  /** What the server wrote to stderr (and to stdout, over http) so far: its logs. */
  output(): string;
  /**
   * Closes the client, which stops the server (over stdio by closing its stdin, over http by SIGTERM),
   * and resolves once the server process is gone; `output()` then holds its last log lines.
   */
  close(): Promise<void>;
}

/** The `start` script of `capabilities/<dir>` (what the Dockerfile runs) as a command. */
export function startCommand(dir: string): string[] {
  const start = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts?: { start?: string } }).scripts?.start;
  if (!start) throw new Error(`${dir}/package.json has no start script`);
  return start.split(" ");
}

/** Starts the server over `transport` and connects an SDK client to it (initialize done). */
export async function connectMcp(transport: McpTransportKind, options: McpConnectOptions): Promise<McpConnection> {
  const [file, ...args] = options.command;
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...options.env };
  const client = new Client({ name: "selu-catalogue-tests", version: "0.0.0" });
  let output = "";
  if (transport === "stdio") {
    const stdio = new StdioClientTransport({
      command: file!,
      args: options.complete ? args : [...args, "--mcp", "stdio", ...(options.args ?? [])],
      env,
      stderr: "pipe",
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    stdio.stderr?.on("data", (d: Buffer) => (output += d.toString("utf8")));
    await client.connect(stdio);
    const pid = stdio.pid;
    return {
      client,
      transport,
      output: () => output,
      async close() {
        await client.close();
        if (pid !== null) await goneOf(pid);
      },
    };
  }
  const port = await freePort();
  const child = spawn(file!, [...args, "--mcp", "http", "--port", String(port), ...(options.args ?? [])], { cwd: options.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const listening = new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString("utf8");
      if (output.includes('"msg":"listening"')) resolve();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening:\n${output}`)));
  });
  await listening;
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  return {
    client,
    transport,
    output: () => output,
    async close() {
      await client.close();
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Waits (up to 15 s) for a process the SDK's stdio transport spawned to be gone. */
async function goneOf(pid: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
