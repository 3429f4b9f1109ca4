// The command-line convention for serving a capability over MCP (issue 19), read by `serve()` before
// anything of MCP is loaded, so this module imports nothing of the SDK:
//   <entrypoint> --mcp stdio                        one client on stdin/stdout, logs on stderr
//   <entrypoint> --mcp http [--port N] [--host H]   Streamable HTTP at /mcp (default 127.0.0.1:3000)
//   either with --config FILE                        credentials as a JSON object, re-read when it changes
import { parsePort } from "../lifecycle.js";

/** How to serve over MCP, from the command line. */
export type McpMode = { transport: "stdio"; config?: string } | { transport: "http"; port: number; host: string; config?: string };

/** Default port of `--mcp http`: no MCP port is standard; 3000 is what the SDK's examples use. */
export const MCP_HTTP_PORT = 3000;

/**
 * Reads `--mcp ...` from the arguments; undefined when there is none (serve over gRPC as always).
 * @throws Error naming the argument when one is unknown or malformed.
 */
export function parseMcpArgs(argv: readonly string[]): McpMode | undefined {
  if (!argv.includes("--mcp") && !argv.some((a) => a.startsWith("--mcp="))) return undefined;
  // Taken when needed, not imported: an import of node:util runs every lazy part of it (worker_threads,
  // the diff and parse_args modules and more), 1-2.5 MiB that a capability served over gRPC never uses.
  const { parseArgs } = process.getBuiltinModule("node:util");
  const { values } = parseArgs({
    args: [...argv],
    options: { mcp: { type: "string" }, port: { type: "string" }, host: { type: "string" }, config: { type: "string" } },
    strict: true,
    allowPositionals: false,
  });
  const config = values.config ? { config: values.config } : {};
  if (values.mcp === "stdio") {
    if (values.port !== undefined || values.host !== undefined) throw new Error("--port and --host apply to --mcp http only");
    return { transport: "stdio", ...config };
  }
  if (values.mcp === "http") {
    return { transport: "http", port: parsePort(values.port, MCP_HTTP_PORT, "--port"), host: values.host ?? "127.0.0.1", ...config };
  }
  throw new Error(`--mcp must be stdio or http, got ${JSON.stringify(values.mcp ?? "")}`);
}
