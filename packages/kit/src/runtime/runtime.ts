import { ArtifactStore } from "../artifacts/store.js";
import type { Capability } from "../capability.js";
import { Egress, type EgressSettings } from "../egress/outbound.js";
import { ShutdownError } from "../errors.js";
import { ByteBudget } from "./byte-budget.js";
import { IdleMemory, type IdleMemoryOptions } from "./idle-memory.js";
import { LinkedSignal, ScopeGroup, type CancelSource } from "./linked-signal.js";
import { createJsonLogger, type Logger, type LogLevel } from "../log.js";
import { WorkSlots } from "../limits/work-slots.js";
import { SecretMask } from "../secrets/secret-mask.js";

export interface RuntimeOptions {
  logger?: Logger;
  logLevel?: LogLevel;
  /** Where the default logger writes its lines (stdout by default; an MCP server on stdio logs to stderr). */
  logWrite?: (line: string) => void;
  egress?: EgressSettings;
  now?: () => number;
  /** When and how the process tidies up and gives memory back once quiet (see IdleMemory: the young generation after 100 ms, V8's memory-reducing collection after 2 s the first time, after 30 s later on once the heap grew by 8 MiB). */
  idleMemory?: IdleMemoryOptions;
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
  /** Whether the per-call info line is written (else its fields are not even made). */
  readonly logsCalls: boolean;
  readonly #shutdown = new AbortController();
  // The scopes of calls and of transfers running now: shutdown aborts them; calls are counted in flight.
  readonly #calls = new ScopeGroup();
  readonly #transfers = new ScopeGroup();
  // Recently seen credential values, masked in logs.
  readonly #secrets = new SecretMask();
  readonly #toolLogs = new Map<string, Logger>();
  readonly #idleMemory: IdleMemory;

  constructor(capability: Capability, options: RuntimeOptions = {}) {
    this.capability = capability;
    this.store = new ArtifactStore({
      maxArtifactBytes: capability.limits.maxArtifactBytes,
      budgetBytes: capability.limits.artifactBudgetBytes,
      ttlMs: capability.limits.artifactTtlMs,
      ...(options.now ? { now: options.now } : {}),
    });
    this.log = options.logger ?? createJsonLogger({ level: options.logLevel ?? "info", mask: this.#secrets, ...(options.logWrite ? { write: options.logWrite } : {}) }, { capability: capability.id });
    this.hasCredentials = Object.keys(capability.credentials).length > 0;
    this.debug = options.logger !== undefined || options.logLevel === "debug";
    this.logsCalls = this.debug || (options.logLevel ?? "info") === "info";
    this.egress = new Egress(options.egress ?? {}, capability.limits);
    this.downloadBuffer = new ByteBudget(capability.limits.downloadBufferBytes);
    const { calls } = capability.limits;
    this.calls = new WorkSlots({ size: calls.max, maxWaiting: calls.maxWaiting, maxWaitMs: calls.maxWaitMs, label: "call slots" });
    this.slots = new WorkSlots({ size: capability.limits.workSlots, label: "work slots" });
    const quiet = () => this.#calls.scopes.length === 0 && this.#transfers.scopes.length === 0;
    this.#idleMemory = new IdleMemory(quiet, options.idleMemory);
    if (this.#idleMemory.enabled) this.#calls.onEmpty = this.#transfers.onEmpty = () => this.#idleMemory.quiet();
  }

  /** Warm-up is over: the memory it left behind is given back once the process stays quiet. */
  settled(): void {
    this.#idleMemory.quiet();
  }

  /**
   * The scope of one call (`kind` "call", counted in flight) or transfer: a signal linked to `cancel`, to
   * shutdown and to `timeoutMs`, named `subject` when it times out. Dispose of it when the work ends.
   */
  link(kind: "call" | "transfer", subject: string, timeoutMs: number | undefined, cancel?: CancelSource): LinkedSignal {
    const scope = new LinkedSignal(kind === "call" ? this.#calls : this.#transfers, subject, timeoutMs);
    if (this.#shutdown.signal.aborted) scope.abort(this.#shutdown.signal.reason);
    return scope.link(cancel);
  }

  /** Aborted when the server starts shutting down past its grace period. */
  get shutdownSignal(): AbortSignal {
    return this.#shutdown.signal;
  }

  /** Resolves when no call is in flight (at once when none is). */
  idle(): Promise<void> {
    return this.#calls.empty();
  }

  /** Calls running now (transfers not counted). */
  get inFlightCount(): number {
    return this.#calls.scopes.length;
  }

  /** The logger of one of the capability's tools (made once per tool). */
  toolLog(toolName: string): Logger {
    let log = this.#toolLogs.get(toolName);
    if (!log) this.#toolLogs.set(toolName, (log = this.log.child({ tool: toolName })));
    return log;
  }

  /** Masks `values` (a call's credentials) in every log line from now on. */
  rememberSecrets(values: Iterable<string | undefined>): void {
    this.#secrets.remember(values);
  }

  /** Cancels every in-flight call and transfer, and those that start from now on. */
  abortAll(): void {
    this.#idleMemory.stop();
    this.#shutdown.abort(new ShutdownError());
    const reason: unknown = this.#shutdown.signal.reason;
    for (const scope of [...this.#calls.scopes, ...this.#transfers.scopes]) scope.abort(reason);
  }
}
