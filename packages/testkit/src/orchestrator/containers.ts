import type { CapabilityClient } from "@selu-catalogue/proto";
import { connect, healthStatus } from "./grpc-calls.js";
import type { ContainerStarter, ManifestView, StartedContainer } from "./types.js";

/** Selu polls a new container's Healthcheck every 200 ms for up to 30 s. */
const READY_WITHIN_MS = 30_000;

interface Running {
  client: CapabilityClient;
  container?: StartedContainer;
}

/**
 * The containers of one installed capability, keyed as Selu keys them: `shared::<id>` for a shared
 * capability (one for every user and session), `<session>::<id>` for an exclusive one. With a
 * {@link ContainerStarter} each key gets its own container, started lazily with the environment Selu
 * sets; with a fixed address every key talks to that one process.
 */
export class Containers {
  readonly #running = new Map<string, Promise<Running>>();

  constructor(
    readonly manifest: ManifestView,
    readonly target: string | ContainerStarter,
  ) {}

  get shared(): boolean {
    return this.manifest.sharing?.mode === "shared";
  }

  /** The container key for a call in `sessionId`. */
  key(sessionId: string): string {
    return this.shared ? `shared::${this.manifest.id}` : `${sessionId}::${this.manifest.id}`;
  }

  /**
   * The client of the container for `key`, starting it when there is none. An exclusive container that
   * crashed stays in place, so every later call of its session fails as in Selu (no restart).
   */
  client(key: string, sessionId: string): Promise<CapabilityClient> {
    let running = this.#running.get(key);
    if (!running) {
      running = this.#start(this.shared ? undefined : sessionId);
      this.#running.set(key, running);
      running.catch(() => this.#running.delete(key));
    }
    return running.then((r) => r.client);
  }

  /** Drops the container behind `key` (stopping it), so the next call starts a fresh one: Selu's shared retry. */
  async replace(key: string): Promise<void> {
    const running = this.#running.get(key);
    this.#running.delete(key);
    if (running) await stopRunning(await running.catch(() => undefined));
  }

  /** A fresh container for one discovery attempt (session `discovery-…`); stop it with the returned function. */
  async discovery(sessionId: string): Promise<{ client: CapabilityClient; stop(): Promise<void> }> {
    const running = await this.#start(sessionId);
    return { client: running.client, stop: () => stopRunning(running) };
  }

  /** Stops every container this capability has (the fixed-address process is left running). */
  async close(): Promise<void> {
    const all = [...this.#running.values()];
    this.#running.clear();
    await Promise.all(all.map(async (r) => stopRunning(await r.catch(() => undefined))));
  }

  /** The environment Selu gives the container besides the proxy variables and the image's ENV. */
  env(sessionId: string | undefined): Record<string, string> {
    const env: Record<string, string> = { SELU_CAPABILITY_ID: this.manifest.id };
    if (sessionId === undefined) env.SELU_SHARED = "true";
    else env.SELU_SESSION_ID = sessionId;
    return env;
  }

  async #start(sessionId: string | undefined): Promise<Running> {
    if (typeof this.target === "string") return { client: await ready(this.target, this.manifest.id) };
    const container = await this.target({ capabilityId: this.manifest.id, sessionId, shared: sessionId === undefined, env: this.env(sessionId) });
    try {
      return { client: await ready(container.address, this.manifest.id), container };
    } catch (err) {
      await container.stop();
      throw err;
    }
  }
}

/**
 * Waits for `ready == true` as Selu does after starting a container: a Healthcheck every 200 ms. A poll
 * that finds no server listening yet is followed by a connection attempt of the next poll's own, as
 * tonic's channel makes one per call while it has none: a grpc-js channel would wait out its reconnect
 * backoff first and fail the polls meanwhile, a server that listens just after a poll then reading
 * ready 200 ms late.
 */
export async function ready(address: string, id: string): Promise<CapabilityClient> {
  const started = Date.now();
  let client = connect(address);
  for (;;) {
    const answer = await healthStatus(client);
    if (answer === "ready") return client;
    if (Date.now() - started > READY_WITHIN_MS) {
      client.close();
      throw new Error(`${id} did not report ready within 30 s`);
    }
    if (answer === "unreachable") {
      client.close();
      client = connect(address);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function stopRunning(running: Running | undefined): Promise<void> {
  if (!running) return;
  running.client.close();
  await running.container?.stop();
}
