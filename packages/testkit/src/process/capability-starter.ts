import type { ContainerRequest, ContainerStarter } from "../orchestrator/types.js";
import { startCapabilityProcess, type CapabilityProcess, type StartOptions } from "./capability-process.js";

/** A {@link ContainerStarter} over a capability directory, with the containers it started. */
export interface CapabilityStarter {
  start: ContainerStarter;
  /** Every container started so far, with what Selu's runner was asked. */
  readonly started: readonly { request: ContainerRequest; process: CapabilityProcess }[];
  /** Stops every container still running. */
  stopAll(): Promise<void>;
}

/**
 * Starts `dir`'s production entrypoint as the container Selu's runner would start for the orchestrator
 * double (`orchestrator.install(manifest, starter.start)`): one per session, one shared, or one per
 * discovery attempt, each with the `SELU_*` variables of its request on top of `options.env`.
 */
export function capabilityStarter(dir: string, options: StartOptions = {}): CapabilityStarter {
  const started: { request: ContainerRequest; process: CapabilityProcess }[] = [];
  return {
    started,
    async start(request) {
      const process = await startCapabilityProcess(dir, { ...options, env: { ...options.env, ...request.env } });
      started.push({ request, process });
      return { address: process.address, stop: () => process.stop() };
    },
    async stopAll() {
      await Promise.all(started.map((s) => s.process.stop()));
    },
  };
}
