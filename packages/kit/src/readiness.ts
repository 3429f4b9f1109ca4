import type { Capability } from "./capability.js";
import type { Logger } from "./log.js";

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
      const reason = err instanceof Error ? err.message : String(err);
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

function noop(): void {}
