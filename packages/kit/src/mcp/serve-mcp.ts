import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Capability } from "../capability.js";
import { proxyFromEnv } from "../egress/proxy-config.js";
import { entryPackageVersion } from "../entry-version.js";
import { KIT_VERSION } from "../gen/version.gen.js";
import { maxRequestBytes } from "../limits/args-bounds.js";
import { writeLinesTo, type LogLevel } from "../log.js";
import { exitOnSignals, FLUSH_MS, waitUntilReady } from "../lifecycle.js";
import { Runtime } from "../runtime/runtime.js";
import type { ServedCapability, ServeOptions } from "../serve-options.js";
import type { McpMode } from "./args.js";
import { readMcpConfig, watchMcpConfig, type McpConfig } from "./config.js";
import type { McpHttpEndpoint } from "./http.js";
import { createMcpServer, offeredTools, type McpShared } from "./server.js";
import { BoundedStdioTransport } from "./stdio-transport.js";
import { mcpTools } from "./tools.js";

/** Sessions an HTTP server holds at once, and how long an idle one is kept (a client reconnects after). */
const MAX_SESSIONS = 32;
const SESSION_IDLE_MS = 30 * 60_000;

/**
 * Serves a capability over MCP (issue 19), on the same runtime as gRPC: the same tools and schemas,
 * validation, limits, errors, logs (on stderr over stdio, whose stdout is the protocol) and shutdown
 * (SIGTERM/SIGINT, or stdin closing over stdio: calls in flight get the grace period, then are cancelled).
 * Called by `serve()` when the command line says `--mcp` (see `mcp/args.ts`).
 */
export async function serveMcp(capability: Capability, mode: McpMode, options: ServeOptions & { env: Record<string, string | undefined>; logLevel: LogLevel }): Promise<ServedCapability> {
  const { env } = options;
  const stdio = mode.transport === "stdio";
  const runtime = new Runtime(capability, {
    ...(options.logger ? { logger: options.logger } : {}),
    logLevel: options.logLevel,
    ...(stdio ? { logWrite: writeLinesTo(process.stderr) } : {}),
    egress: options.egress ?? { proxy: proxyFromEnv(env) },
  });
  const { log } = runtime;
  let config: McpConfig = readMcpConfig(capability, env, mode.config);
  let closing = false;
  const servers = new Set<Server>();
  const shared: McpShared = {
    runtime,
    version: options.version ?? entryPackageVersion() ?? "unknown",
    tools: mcpTools(capability),
    config: () => config,
    closing: () => closing,
  };
  const open = (sessionId: () => string): Server => {
    const server = createMcpServer(shared, sessionId);
    servers.add(server);
    server.onclose = () => servers.delete(server);
    server.onerror = (err) => log.debug("mcp protocol error", { error: err.message });
    return server;
  };
  // One request holds the largest tool's arguments and, inline, one file of the per-file cap as base64.
  const maxMessageBytes = maxRequestBytes(capability.tools.values(), capability.limits) + Math.ceil(capability.limits.maxArtifactBytes / 3) * 4;

  let endpoint: McpHttpEndpoint | undefined;
  const stdioSession = `mcp-${randomUUID()}`;
  if (mode.transport === "http") {
    // The HTTP transport (and the web framework under the SDK's) loads only for --mcp http.
    const { listenMcpHttp } = await import("./http.js");
    endpoint = await listenMcpHttp({ host: mode.host, port: mode.port, maxBodyBytes: maxMessageBytes, maxSessions: MAX_SESSIONS, sessionIdleMs: SESSION_IDLE_MS, log, createServer: open });
  } else {
    const server = open(() => stdioSession);
    const transport = new BoundedStdioTransport(process.stdin, process.stdout, maxMessageBytes);
    await server.connect(transport);
    // The client closing stdin ends the session: the MCP specification's way to stop a stdio server.
    transport.oninputend = () => {
      log.info("stdin closed");
      void close().then(() => (options.handleSignals ?? true) && process.exit(0));
    };
  }
  log.info("listening", {
    transport: `mcp-${mode.transport}`,
    ...(mode.transport === "http" && endpoint ? { host: mode.host, port: endpoint.port } : {}),
    version: shared.version,
    kit: KIT_VERSION,
    tools: capability.tools.size,
    proxy: runtime.egress.proxyUrl ?? "none",
  });

  // A changed --config takes effect on the next call; a dynamic tool set that changes with it is announced.
  const stopWatching = mode.config
    ? watchMcpConfig(capability, env, mode.config, log, (next) => {
        const before = toolNames(shared);
        config = next;
        if (toolNames(shared) !== before) for (const server of servers) void server.sendToolListChanged().catch(() => {});
      })
    : undefined;

  const ready = waitUntilReady(capability, log, () => closing).then(() => {
    if (closing) return;
    log.info("ready");
    runtime.settled();
  });

  let closed: Promise<void> | undefined;
  const close = (graceMs = capability.limits.shutdownGraceMs) =>
    (closed ??= (async () => {
      closing = true;
      stopWatching?.();
      endpoint?.stopAccepting();
      log.info("draining", { inFlight: runtime.inFlightCount, graceMs });
      const within = (ms: number) => Promise.race([runtime.idle().then(() => true), new Promise<boolean>((r) => setTimeout(r, ms, false).unref())]);
      if (!(await within(graceMs))) {
        log.warn("grace period over: cancelling calls in flight", { inFlight: runtime.inFlightCount });
        runtime.abortAll();
        await within(FLUSH_MS);
      }
      // Answers written just now leave before the transports close.
      await new Promise((r) => setImmediate(r));
      await Promise.allSettled([...servers].map((s) => s.close()));
      await endpoint?.close();
      await runtime.egress.http.close();
      log.info("stopped");
    })());

  if (options.handleSignals ?? true) exitOnSignals(log, close);
  return { port: endpoint?.port ?? 0, runtime, ready, close };
}

function toolNames(shared: McpShared): string {
  return offeredTools(shared)
    .map((t) => t.name)
    .join(",");
}
