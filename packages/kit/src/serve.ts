import { ArtifactChunk, CapabilityService, type HealthResponse } from "@selu-catalogue/proto";
import type { Capability } from "./capability.js";
import { handleDownload, handleUpload } from "./grpc/artifact-handlers.js";
import { handleInvoke, handleStreamInvoke } from "./grpc/invoke-handlers.js";
import { HealthReporter } from "./grpc/health-service.js";
import { addReflectionService } from "./grpc/reflection-service.js";
import { withZeroCopyResponses } from "./grpc/zero-copy.js";
import { GrpcServer, type Implementation, type ServerCall } from "./grpc/server/index.js";
import { proxyFromEnv } from "./egress/proxy-config.js";
import { MAX_MESSAGE_BYTES } from "./limits.js";
import { entryPackageVersion } from "./entry-version.js";
import { KIT_VERSION } from "./gen/version.gen.js";
import { createJsonLogger, parseLogLevel, writeLinesTo, type LogLevel } from "./log.js";
import { Runtime } from "./runtime/runtime.js";
import type { ServedCapability, ServeOptions } from "./serve-options.js";
import { maxRequestBytes, maxStreams } from "./limits/args-bounds.js";
import { parseMcpArgs } from "./mcp/args.js";
import { exitOnSignals, FLUSH_MS, parsePort, waitUntilReady } from "./lifecycle.js";
import { errorMessage } from "./errors.js";

// Downloads send 256 KiB chunks; every other answer is small (grpc/zero-copy.ts says why that matters).
const CAPABILITY_SERVICE = withZeroCopyResponses(CapabilityService, { downloadOutputArtifact: ArtifactChunk });

/**
 * Serves a capability over Selu's contract: all five RPCs, grpc.health.v1 and reflection.
 *
 * @example
 * import capability from "./capability.js";
 * await serve(capability);
 */
export async function serve(capability: Capability, options: ServeOptions = {}): Promise<ServedCapability> {
  const env = options.env ?? process.env;
  const logLevel = options.logLevel ?? parseLogLevel(env.LOG_LEVEL);
  const entrypoint = options.handleSignals ?? true;
  const argv = options.argv ?? (entrypoint ? process.argv.slice(2) : []);
  try {
    const mcp = parseMcpArgs(argv);
    if (mcp) {
      // Loaded only when asked: gRPC start-up never pays for the MCP SDK (issue 19).
      const { serveMcp } = await import("./mcp/serve-mcp.js");
      return await serveMcp(capability, mcp, { ...options, env, logLevel });
    }
    return await start(capability, options, env, logLevel);
  } catch (err) {
    if (!entrypoint) throw err;
    // An entrypoint that can't start says why in one log line (not a stack trace) and exits non-zero.
    // Over MCP stdio, stdout is the protocol: the line goes to stderr.
    const write = argv.includes("--mcp") ? writeLinesTo(process.stderr) : undefined;
    const log = options.logger ?? createJsonLogger({ level: logLevel, ...(write ? { write } : {}) }, { capability: capability.id });
    log.error("cannot start", { error: errorMessage(err) });
    process.exit(1);
  }
}

async function start(capability: Capability, options: ServeOptions, env: Record<string, string | undefined>, logLevel: LogLevel): Promise<ServedCapability> {
  const runtime = new Runtime(capability, {
    ...(options.logger ? { logger: options.logger } : {}),
    logLevel,
    egress: options.egress ?? { proxy: proxyFromEnv(env) },
  });
  const { log } = runtime;
  // The orchestrator's 16 MiB each way, the receive bound narrowed to the largest request the tools take,
  // and concurrent streams per connection bounded (the rest wait unread, then are refused), from the
  // capability's limits (`limits/args-bounds.ts`, issue 10 items 1 and 4).
  const streams = maxStreams(capability.limits);
  const server = new GrpcServer({
    maxReceiveBytes: maxRequestBytes(capability.tools.values(), capability.limits),
    maxSendBytes: MAX_MESSAGE_BYTES,
    // Requests are buffered whole before a handler sees them: bounding streams bounds that memory.
    maxConcurrentStreams: streams.running,
    maxWaitingStreams: streams.waiting,
    onHandlerError: (method, error) => log.error("handler threw", { method, error: errorMessage(error) }),
    onConnectionError: (error) => log.debug("connection failed", { error: errorMessage(error) }),
  });
  let readiness: HealthResponse = { ready: false, message: "starting" };
  let closing = false;
  const held = new HeldHealthchecks();
  const implementation: Implementation<typeof CapabilityService> = {
    invoke: handleInvoke(runtime),
    streamInvoke: handleStreamInvoke(runtime),
    healthcheck: (call, respond) => {
      if (readiness.ready || closing) respond(null, readiness);
      else held.hold(call, () => respond(null, readiness));
    },
    uploadInputArtifact: handleUpload(runtime),
    downloadOutputArtifact: handleDownload(runtime),
  };
  server.addService(CAPABILITY_SERVICE, implementation);
  const standard = options.standardServices ?? true;
  const health = standard ? new HealthReporter() : undefined;
  if (health) {
    health.addTo(server);
    addReflectionService(server);
  }

  const host = options.host ?? "0.0.0.0";
  const requested = options.port ?? parsePort(env.PORT, 50051);
  const port = await server.listen(host, requested).catch((err: Error) => {
    throw new Error(`cannot listen on ${host}:${requested}: ${bindFailure(err.message)}`);
  });
  log.info("listening", {
    host,
    port,
    version: options.version ?? entryPackageVersion() ?? "unknown",
    kit: KIT_VERSION,
    tools: capability.tools.size,
    proxy: runtime.egress.proxyUrl ?? "none",
  });

  const notReady = (reason: string) => (readiness = { ready: false, message: `starting: ${reason}` });
  const ready = waitUntilReady(capability, log, () => closing, notReady).then(() => {
    if (closing) return;
    readiness = { ready: true, message: "ready" };
    held.answerAll();
    health?.setServing(true);
    log.info("ready");
    runtime.settled();
  });

  let closed: Promise<void> | undefined;
  const close = (graceMs = capability.limits.shutdownGraceMs) =>
    (closed ??= (async () => {
      closing = true;
      readiness = { ready: false, message: "shutting down" };
      held.answerAll();
      health?.setServing(false);
      health?.endWatches();
      log.info("draining", { inFlight: runtime.inFlightCount, graceMs });
      const drained = new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      const within = (ms: number) => Promise.race([drained.then(() => true), new Promise<boolean>((r) => setTimeout(r, ms, false).unref())]);
      if (!(await within(graceMs))) {
        log.warn("grace period over: cancelling calls in flight", { inFlight: runtime.inFlightCount });
        runtime.abortAll();
        // Every call and transfer answers at once now ("shutting down", issue 10 item 6); give those
        // answers time to reach their clients before connections are cut.
        if (!(await within(FLUSH_MS))) server.forceShutdown();
      }
      await runtime.egress.http.close();
      log.info("stopped");
    })());

  if (options.handleSignals ?? true) exitOnSignals(log, close);
  return { port, runtime, ready, close };
}

/**
 * How long a Healthcheck asked while the capability starts is held for its readiness. Selu asks again 200
 * ms after each "not ready" and sets no deadline on these calls: one that arrives during warm-up (pdf's
 * takes 50-70 ms after it listens) is answered the moment the capability is ready, up to 200 ms sooner.
 * Past the hold the answer is "not ready" and the next question is held again.
 */
const HEALTH_HOLD_MS = 1_000;
/** How long before a client's deadline a held Healthcheck is answered. */
const DEADLINE_MARGIN_MS = 50;

/** Healthchecks waiting for the capability to be ready (or to shut down), each answered once. */
class HeldHealthchecks {
  readonly #waiting = new Set<() => void>();

  hold(call: ServerCall, answer: () => void): void {
    if (call.cancelled) return;
    let stopListening: (() => void) | undefined;
    const settle = (answered: boolean) => {
      clearTimeout(timer);
      stopListening?.();
      this.#waiting.delete(answerNow);
      if (answered) answer();
    };
    const answerNow = () => settle(true);
    // Answered before the client's deadline, if it set one (Selu sets none): "not ready" beats a timeout.
    const left = call.deadlineAt === undefined ? HEALTH_HOLD_MS : call.deadlineAt - Date.now() - DEADLINE_MARGIN_MS;
    const timer = setTimeout(answerNow, Math.max(0, Math.min(HEALTH_HOLD_MS, left))).unref();
    // A client that gives up (or whose deadline passes) is not answered.
    stopListening = call.onCancel(() => settle(false));
    this.#waiting.add(answerNow);
  }

  /** Answers every held Healthcheck now, with the readiness as it is. */
  answerAll(): void {
    for (const answer of [...this.#waiting]) answer();
  }
}

/** Node words a failed bind as "listen EADDRINUSE: address already in use 0.0.0.0:50051". */
function bindFailure(message: string): string {
  if (message.includes("EADDRINUSE")) return "the port is in use";
  if (message.includes("EACCES")) return "permission denied (ports below 1024 need privileges)";
  if (message.includes("EADDRNOTAVAIL")) return "the address is not one of this machine's";
  return message;
}
