// What `serve` takes and returns, apart from it: the gRPC server (serve.ts) and the MCP server
// (mcp/serve-mcp.ts) both return a ServedCapability, and neither imports the other's module for it.
import type { EgressSettings } from "./egress/outbound.js";
import type { Logger, LogLevel } from "./log.js";
import type { Runtime } from "./runtime/runtime.js";

/** How `serve` runs a capability. */
export interface ServeOptions {
  /** Default: $PORT, else 50051 (the port Selu dials). */
  port?: number;
  /** Default 0.0.0.0: Selu reaches the container from outside. */
  host?: string;
  logger?: Logger;
  /** Default: $LOG_LEVEL, else info. */
  logLevel?: LogLevel;
  /**
   * Entrypoint mode (default true; tests pass false): exit on SIGTERM/SIGINT after draining, and exit 1
   * after one log line when the server can't start (bad proxy URL, port taken) instead of rejecting.
   */
  handleSignals?: boolean;
  /** Register grpc.health.v1 and server reflection (default true). */
  standardServices?: boolean;
  /** Outbound settings; default: the proxy from HTTPS_PROXY/HTTP_PROXY (either case). */
  egress?: EgressSettings;
  /** The capability's version for the logs (default: the entrypoint's package.json). */
  version?: string;
  /** Environment to read PORT, LOG_LEVEL, the proxy and (over MCP) credentials from (default process.env). */
  env?: Record<string, string | undefined>;
  /**
   * Command-line arguments (default: the process's, in entrypoint mode). `--mcp stdio` or `--mcp http
   * [--port N] [--host H]` serves the capability over the Model Context Protocol instead of gRPC
   * (`mcp/args.ts`); the MCP modules are loaded only then.
   */
  argv?: readonly string[];
}

/** A running capability server. */
export interface ServedCapability {
  readonly port: number;
  readonly runtime: Runtime;
  /** Resolves when the capability's readiness check has passed. */
  readonly ready: Promise<void>;
  /**
   * Stops taking calls, waits up to `graceMs` (the capability's shutdownGraceMs by default) for calls in
   * flight, then cancels what is left and closes.
   */
  close(graceMs?: number): Promise<void>;
}
