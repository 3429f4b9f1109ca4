// What both transports (gRPC in serve.ts, MCP in mcp/serve-mcp.ts) do alike around the runtime: wait for
// readiness, read a port, and exit on SIGTERM/SIGINT after draining.
import type { Capability } from "./capability.js";
import type { Logger } from "./log.js";
import { errorMessage } from "./errors.js";

/** After the grace period, how long answers of cancelled calls get to reach their clients. */
export const FLUSH_MS = 3_000;

/**
 * Runs the capability's readiness check until it passes (backing off from 200 ms to 5 s), or until
 * `stopped()` says the server is closing. Each failure is logged and reported through `notReady`.
 */
export async function waitUntilReady(capability: Capability, log: Logger, stopped: () => boolean, notReady: (reason: string) => void = noop): Promise<void> {
  if (!capability.ready) return;
  for (let attempt = 0, delay = 200; !stopped(); attempt++, delay = Math.min(delay * 2, 5000)) {
    try {
      await capability.ready();
      return;
    } catch (err) {
      const reason = errorMessage(err);
      notReady(reason);
      log.warn("not ready yet", { attempt, reason });
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/** A listening port from the environment or the command line; `fallback` when absent. */
export function parsePort(value: string | undefined, fallback: number, name = "PORT"): number {
  if (value === undefined || value === "") return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number, got ${JSON.stringify(value)}`);
  return port;
}

/** Entrypoint mode: on SIGTERM or SIGINT, log it, run `close` (drain, then cancel) and exit 0. */
export function exitOnSignals(log: Logger, close: () => Promise<void>): void {
  const onSignal = (signal: NodeJS.Signals) => {
    log.info("signal received", { signal });
    void close().then(() => process.exit(0));
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
}

function noop(): void {}
