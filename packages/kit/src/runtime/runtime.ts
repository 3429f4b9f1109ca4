import { ArtifactStore } from "../artifacts/store.js";
import type { Capability } from "../capability.js";
import { Egress, type EgressSettings } from "../egress/outbound.js";
import { ShutdownError } from "../errors.js";
import { ByteBudget } from "./byte-budget.js";
import type { CancelHook } from "./linked-signal.js";
import { createJsonLogger, type Logger, type LogLevel } from "../log.js";
import { WorkSlots } from "../limits/work-slots.js";

export interface RuntimeOptions {
  logger?: Logger;
  logLevel?: LogLevel;
  /** Where the default logger writes its lines (stdout by default; an MCP server on stdio logs to stderr). */
  logWrite?: (line: string) => void;
  egress?: EgressSettings;
  now?: () => number;
}

/**
 * Everything a served capability holds at run time, independent of the transport: the capability,
 * its artifact store, the logger, outbound connections, in-flight calls and the shutdown signal. Calls
 * and transfers run on it through `invokeTool`, `Upload` and `sendDownload`, which any transport adapts.
 */
export class Runtime {
  readonly capability: Capability;
  readonly store: ArtifactStore;
  readonly log: Logger;
  readonly egress: Egress;
  /** Download bytes waiting to leave the process, across all downloads. */
  readonly downloadBuffer: ByteBudget;
  /** Admission of Invoke calls: `limits.calls`. */
  readonly calls: WorkSlots;
  /** The heavy-work slots tools share through `ctx.slots`. */
  readonly slots: WorkSlots;
  /** Whether the capability declares any credential (else config_json needs no reading per call). */
  readonly hasCredentials: boolean;
  /** Whether debug records can be written (a caller's own logger decides for itself, so: yes). */
  readonly debug: boolean;
  readonly #shutdown = new AbortController();
  readonly #inFlight = new Set<Promise<unknown>>();
  // Recently seen credential values, masked in logs; bounded so it cannot grow with users.
  readonly #secrets = new Set<string>();
  readonly #toolLogs = new Map<string, Logger>();
  // What abortAll() aborts: each call's and transfer's own abort, held only while it runs.
  readonly #onShutdown = new Set<(reason: unknown) => void>();

  constructor(capability: Capability, options: RuntimeOptions = {}) {
    this.capability = capability;
    this.store = new ArtifactStore({
      maxArtifactBytes: capability.limits.maxArtifactBytes,
      budgetBytes: capability.limits.artifactBudgetBytes,
      ttlMs: capability.limits.artifactTtlMs,
      ...(options.now ? { now: options.now } : {}),
    });
    this.log =
      options.logger ?? createJsonLogger({ level: options.logLevel ?? "info", secrets: () => this.#secrets, ...(options.logWrite ? { write: options.logWrite } : {}) }, { capability: capability.id });
    this.hasCredentials = Object.keys(capability.credentials).length > 0;
    this.debug = options.logger !== undefined || options.logLevel === "debug";
    this.egress = new Egress(options.egress ?? {}, capability.limits);
    this.downloadBuffer = new ByteBudget(capability.limits.downloadBufferBytes);
    const { calls } = capability.limits;
    this.calls = new WorkSlots({ size: calls.max, maxWaiting: calls.maxWaiting, maxWaitMs: calls.maxWaitMs, label: "call slots" });
    this.slots = new WorkSlots({ size: capability.limits.workSlots, label: "work slots" });
  }

  /** Links a call to shutdown: `abort` runs when the grace period ends (at once if it has). */
  readonly shutdownHook: CancelHook = (abort) => {
    if (this.#shutdown.signal.aborted) {
      abort(this.#shutdown.signal.reason);
      return noop;
    }
    this.#onShutdown.add(abort);
    return () => this.#onShutdown.delete(abort);
  };

  /** Aborted when the server starts shutting down past its grace period. */
  get shutdownSignal(): AbortSignal {
    return this.#shutdown.signal;
  }

  get inFlightCount(): number {
    return this.#inFlight.size;
  }

  /** The logger of one of the capability's tools (made once per tool). */
  toolLog(toolName: string): Logger {
    let log = this.#toolLogs.get(toolName);
    if (!log) this.#toolLogs.set(toolName, (log = this.log.child({ tool: toolName })));
    return log;
  }

  rememberSecrets(values: Iterable<string | undefined>): void {
    for (const value of values) {
      if (!value || this.#secrets.has(value)) continue;
      if (this.#secrets.size >= 256) this.#secrets.delete(this.#secrets.values().next().value!);
      this.#secrets.add(value);
    }
  }

  /** Tracks a call so shutdown can wait for it. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#inFlight.add(work);
    const done = () => this.#inFlight.delete(work);
    work.then(done, done);
    return work;
  }

  /** Resolves when no call is in flight (or at once). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /** Cancels every in-flight call. */
  abortAll(): void {
    this.#shutdown.abort(new ShutdownError());
    for (const abort of this.#onShutdown) abort(this.#shutdown.signal.reason);
    this.#onShutdown.clear();
  }
}

function noop(): void {}
