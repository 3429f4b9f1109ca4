import { Server, ServerCredentials, type ChannelOptions } from "@grpc/grpc-js";
import {
  ArtifactChunk,
  CapabilityService,
  HealthResponse,
  InvokeChunk,
  InvokeResponse,
  UploadInputArtifactResponse,
  type CapabilityServer,
} from "@selu-catalogue/proto";
import type { Capability } from "./capability.js";
import { handleDownload, handleUpload } from "./grpc/artifact-handlers.js";
import { handleInvoke, handleStreamInvoke } from "./grpc/invoke-handlers.js";
import { HealthReporter } from "./grpc/health-service.js";
import { addReflectionService } from "./grpc/reflection-service.js";
import { withZeroCopyResponses } from "./grpc/zero-copy.js";
import { proxyFromEnv } from "./egress/proxy-config.js";
import { MAX_MESSAGE_BYTES } from "./limits.js";
import type { EgressSettings } from "./runtime/egress.js";
import { parseLogLevel, type Logger, type LogLevel } from "./log.js";
import { Runtime } from "./runtime/runtime.js";
import { maxRequestBytes, maxStreams } from "./limits/args-bounds.js";

export interface ServeOptions {
  /** Default: $PORT, else 50051 (the port Selu dials). */
  port?: number;
  /** Default 0.0.0.0: Selu reaches the container from outside. */
  host?: string;
  logger?: Logger;
  /** Default: $LOG_LEVEL, else info. */
  logLevel?: LogLevel;
  /** Exit on SIGTERM/SIGINT after draining (default true for entrypoints; tests pass false). */
  handleSignals?: boolean;
  /** Register grpc.health.v1 and server reflection (default true). */
  standardServices?: boolean;
  /** Outbound settings; default: the proxy from HTTPS_PROXY/HTTP_PROXY (either case). */
  egress?: EgressSettings;
  /** Environment to read PORT, LOG_LEVEL and the proxy from (default process.env). */
  env?: Record<string, string | undefined>;
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

/** The channel options the orchestrator uses, and that we serve with: 16 MiB each way. */
export const SERVER_OPTIONS: ChannelOptions = {
  "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
  "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
};

const CAPABILITY_SERVICE = withZeroCopyResponses(CapabilityService, {
  invoke: InvokeResponse,
  streamInvoke: InvokeChunk,
  healthcheck: HealthResponse,
  uploadInputArtifact: UploadInputArtifactResponse,
  downloadOutputArtifact: ArtifactChunk,
});

/**
 * Serves a capability over Selu's contract: all five RPCs, grpc.health.v1 and reflection.
 *
 * @example
 * import capability from "./capability.js";
 * await serve(capability);
 */
export async function serve(capability: Capability, options: ServeOptions = {}): Promise<ServedCapability> {
  const env = options.env ?? process.env;
  const runtime = new Runtime(capability, {
    ...(options.logger ? { logger: options.logger } : {}),
    logLevel: options.logLevel ?? parseLogLevel(env.LOG_LEVEL),
    egress: options.egress ?? { proxy: proxyFromEnv(env) },
  });
  const { log } = runtime;
  const server = new Server({
    ...SERVER_OPTIONS,
    "grpc.max_receive_message_length": maxRequestBytes(capability.tools.values(), capability.limits),
    // Requests are buffered whole before a handler sees them: bounding streams bounds that memory.
    "grpc.max_concurrent_streams": maxStreams(capability.limits),
  });
  let readiness: HealthResponse = { ready: false, message: "starting" };
  const implementation: CapabilityServer = {
    invoke: handleInvoke(runtime),
    streamInvoke: handleStreamInvoke(runtime),
    healthcheck: (_call, callback) => callback(null, readiness),
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
  const requested = options.port ?? parsePort(env.PORT);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${requested}`, ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(new Error(`cannot listen on ${host}:${requested}: ${err.message}`)) : resolve(bound),
    ),
  );
  log.info("listening", { host, port, tools: capability.tools.size, proxy: runtime.egress.proxyUrl ?? "none" });

  let closing = false;
  const notReady = (reason: string) => (readiness = { ready: false, message: `starting: ${reason}` });
  const ready = waitUntilReady(capability, log, () => closing, notReady).then(() => {
    if (closing) return;
    readiness = { ready: true, message: "ready" };
    health?.setServing(true);
    log.info("ready");
  });

  let closed: Promise<void> | undefined;
  const close = (graceMs = capability.limits.shutdownGraceMs) =>
    (closed ??= (async () => {
      closing = true;
      readiness = { ready: false, message: "shutting down" };
      health?.setServing(false);
      health?.endWatches();
      log.info("draining", { inFlight: runtime.inFlightCount, graceMs });
      const drained = new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      const within = (ms: number) =>
        Promise.race([drained.then(() => true), new Promise<boolean>((r) => setTimeout(r, ms, false).unref())]);
      if (!(await within(graceMs))) {
        log.warn("grace period over: cancelling calls in flight", { inFlight: runtime.inFlightCount });
        runtime.abortAll();
        // Cancelled calls answer "shutting down"; give those answers a moment to reach the clients.
        if (!(await within(1_000))) server.forceShutdown();
      }
      await runtime.egress.http.close();
      log.info("stopped");
    })());

  if (options.handleSignals ?? true) {
    const onSignal = (signal: NodeJS.Signals) => {
      log.info("signal received", { signal });
      void close().then(() => process.exit(0));
    };
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
  }
  return { port, runtime, ready, close };
}

async function waitUntilReady(
  capability: Capability,
  log: Logger,
  stopped: () => boolean,
  notReady: (reason: string) => void,
): Promise<void> {
  if (!capability.ready) return;
  for (let attempt = 0, delay = 200; !stopped(); attempt++, delay = Math.min(delay * 2, 5000)) {
    try {
      await capability.ready();
      return;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      notReady(reason);
      log.warn("not ready yet", { attempt, reason });
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === "") return 50051;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${JSON.stringify(value)}`);
  return port;
}
