import { randomBytes } from "node:crypto";
import { createArtifactAccess } from "../artifacts/access.js";
import { neededCredentials } from "../capability.js";
import type { ToolContext, ToolDefinition, ToolResult } from "../define.js";
import { ToolError } from "../errors.js";
import { MAX_MESSAGE_BYTES } from "../limits.js";
import { formatIssues } from "../validation.js";
import { readCredentials } from "./credentials.js";
import { parseJsonObject } from "./parse-json.js";
import { ShutdownError, type Runtime } from "./runtime.js";

/** An Invoke request, whatever the transport. */
export interface InvokeInput {
  toolName: string;
  argsJson: Uint8Array;
  configJson: Uint8Array;
  sessionId: string;
  threadId: string;
  capabilityId: string;
}

export type InvokeOutcome = { ok: true; resultJson: Buffer } | { ok: false; error: string };

export interface InvokeOptions {
  /** Aborts when the client cancels or its deadline passes. */
  signal?: AbortSignal;
  /** Receives each value a generator tool yields (StreamInvoke streams them). */
  onProgress?: (value: unknown) => void;
}

// Keys the orchestrator strips before dispatch; stripped here too for other clients.
const APPROVAL_KEYS = ["_approval_message", "_approval_message_i18n"];
// Selu truncates results longer than about this in the model's context.
const RESULT_WARN_BYTES = 48 * 1024;
// Room for the response's own framing within the 16 MiB message bound.
const MAX_RESULT_BYTES = MAX_MESSAGE_BYTES - 1024;

/**
 * Runs one tool call: parses and validates, runs the handler under its signal and timeout, and turns
 * every failure into one error message for `InvokeResponse.error`. Never throws.
 */
export function invokeTool(runtime: Runtime, input: InvokeInput, options: InvokeOptions = {}): Promise<InvokeOutcome> {
  return runtime.track(run(runtime, input, options));
}

async function run(runtime: Runtime, input: InvokeInput, options: InvokeOptions): Promise<InvokeOutcome> {
  const started = performance.now();
  const { capability } = runtime;
  const def = capability.tools.get(input.toolName);
  if (!def) {
    const names = [...capability.tools.keys()].join(", ");
    return fail(runtime, input, started, `unknown tool ${JSON.stringify(input.toolName)}; this capability has: ${names}`);
  }
  const scope = new CallScope(input.toolName, def.timeoutMs ?? capability.limits.toolTimeoutMs, [options.signal, runtime.shutdownSignal]);
  try {
    const ctx = prepare(runtime, def, input, scope);
    const args = parseArgs(def, input);
    const output = execute(def, args, ctx, options.onProgress);
    // A handler that answered synchronously can't be cancelled or time out: no signal was ever needed.
    const result = output instanceof Promise ? await untilAborted(output, scope.signal) : output;
    const resultJson = serialize(input.toolName, result);
    if (resultJson.byteLength > RESULT_WARN_BYTES) {
      runtime.log.warn("large tool result: Selu truncates it in the model's context", {
        tool: input.toolName,
        bytes: resultJson.byteLength,
      });
    }
    if (runtime.debug) runtime.log.debug("tool call", { tool: input.toolName, ms: elapsed(started), outcome: "ok" });
    return { ok: true, resultJson };
  } catch (err) {
    return fail(runtime, input, started, errorMessage(runtime, input.toolName, err, scope.abortReason));
  } finally {
    scope.dispose();
  }
}

/**
 * The call's AbortSignal, armed on first use: it aborts on the caller's cancel or deadline, at shutdown,
 * or when the tool's timeout passes. Most calls of simple tools never need it, and arming costs a timer
 * and two listeners per call.
 */
class CallScope {
  #controller: AbortController | undefined;
  #timer: NodeJS.Timeout | undefined;
  #unlink: (() => void) | undefined;

  constructor(
    private readonly toolName: string,
    private readonly timeoutMs: number,
    private readonly outer: readonly (AbortSignal | undefined)[],
  ) {}

  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = (this.#controller = new AbortController());
    this.#timer = setTimeout(() => controller.abort(new TimeoutError(this.toolName, this.timeoutMs)), this.timeoutMs);
    this.#unlink = link(controller, this.outer);
    return controller.signal;
  }

  /** Why the call was aborted, if it was; a signal never armed was never aborted. */
  get abortReason(): { reason: unknown } | undefined {
    return this.#controller?.signal.aborted ? { reason: this.#controller.signal.reason } : undefined;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#unlink?.();
  }
}

function prepare(runtime: Runtime, def: ToolDefinition, input: InvokeInput, scope: CallScope): ToolContext {
  const { capability } = runtime;
  const config = parseJsonObject(input.configJson, "config_json", true);
  const credentials = readCredentials(config, capability.credentials, neededCredentials(def, capability.credentials), capability.id);
  runtime.rememberSecrets(Object.values(credentials));
  let log: ToolContext["log"] | undefined;
  let artifacts: ToolContext["artifacts"] | undefined;
  // Made on first use (log, artifacts, signal): most calls touch few of them, and this is the hot path.
  return {
    get signal() {
      return scope.signal;
    },
    toolName: input.toolName,
    capabilityId: capability.id,
    sessionId: input.sessionId,
    threadId: input.threadId,
    // Needed credentials were checked above; a tool narrowing `needs` reads the others as optional.
    credentials: credentials as ToolContext["credentials"],
    get artifacts() {
      return (artifacts ??= createArtifactAccess(runtime.store, scope.signal));
    },
    get log() {
      return (log ??= runtime.log.child({ tool: input.toolName }));
    },
    limits: capability.limits,
    http: runtime.egress.http,
    openTunnel: (host, port, request) => runtime.egress.openTunnel(host, port, { signal: scope.signal, ...request }),
  };
}

function parseArgs(def: ToolDefinition, input: InvokeInput): unknown {
  const raw = parseJsonObject(input.argsJson, "args_json");
  for (const key of APPROVAL_KEYS) delete raw[key];
  const parsed = def.input.safeParse(raw);
  if (parsed.success) return parsed.data;
  const known = Object.keys(def.input.shape);
  const hint = parsed.error.issues.some((i) => i.code === "unrecognized_keys" && i.path.length === 0)
    ? ` (the tool takes: ${known.join(", ") || "no arguments"})`
    : "";
  throw new ToolError(`invalid arguments for ${input.toolName}: ${formatIssues(parsed.error.issues)}${hint}`);
}

/** The handler's output: a value, a promise, or (for a generator) a promise of its return value. */
function execute(def: ToolDefinition, args: unknown, ctx: ToolContext, onProgress: InvokeOptions["onProgress"]): unknown {
  const output = def.run(args, ctx);
  return isAsyncGenerator(output) ? drain(output, ctx.signal, onProgress) : output;
}

async function drain(output: AsyncGenerator<unknown, unknown, void>, signal: AbortSignal, onProgress: InvokeOptions["onProgress"]): Promise<unknown> {
  for (;;) {
    const step = await output.next();
    if (step.done) return step.value;
    signal.throwIfAborted();
    onProgress?.(step.value);
  }
}

function serialize(toolName: string, result: unknown): Buffer {
  if (result === null || typeof result !== "object" || Array.isArray(result)) {
    throw new Error(`tool ${toolName} returned ${Array.isArray(result) ? "an array" : typeof result}, not a JSON object`);
  }
  const json = Buffer.from(JSON.stringify(result as ToolResult), "utf8");
  if (json.byteLength > MAX_RESULT_BYTES) {
    throw new ToolError(`the result of ${toolName} is too large to send (over 16 MiB); return large content as an artifact`);
  }
  return json;
}

function errorMessage(runtime: Runtime, toolName: string, err: unknown, aborted: { reason: unknown } | undefined): string {
  if (err instanceof ToolError) return err.message;
  if (aborted?.reason instanceof TimeoutError) return aborted.reason.message;
  if (aborted?.reason instanceof ShutdownError) return `${toolName} was stopped: the capability is shutting down; try again`;
  if (aborted) return `${toolName} was cancelled by the caller`;
  // A server fault: the details stay in our logs, the caller gets a reference to quote.
  const ref = randomBytes(4).toString("hex");
  runtime.log.error("tool failed", {
    tool: toolName,
    ref,
    error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  return `${toolName} failed because of an internal error (reference ${ref}); the capability's logs have the details`;
}

function fail(runtime: Runtime, input: InvokeInput, started: number, error: string): InvokeOutcome {
  runtime.log.info("tool call failed", { tool: input.toolName, ms: elapsed(started), error });
  return { ok: false, error };
}

/** Rejects with the signal's reason as soon as it aborts, even if `work` ignores the signal. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (v) => (signal.removeEventListener("abort", onAbort), resolve(v)),
      (e: unknown) => (signal.removeEventListener("abort", onAbort), reject(e)),
    );
  });
}

/** Aborts `controller` when any of `signals` aborts; returns the unlink function. */
function link(controller: AbortController, signals: readonly (AbortSignal | undefined)[]): () => void {
  const cleanups: (() => void)[] = [];
  for (const signal of signals) {
    if (!signal) continue;
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    cleanups.push(() => signal.removeEventListener("abort", onAbort));
  }
  return () => cleanups.forEach((fn) => fn());
}

function isAsyncGenerator(value: unknown): value is AsyncGenerator<unknown, unknown, void> {
  return typeof value === "object" && value !== null && typeof (value as AsyncGenerator).next === "function" &&
    Symbol.asyncIterator in value;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

class TimeoutError extends Error {
  override readonly name = "TimeoutError";
  constructor(toolName: string, ms: number) {
    super(`${toolName} timed out after ${ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`}`);
  }
}
