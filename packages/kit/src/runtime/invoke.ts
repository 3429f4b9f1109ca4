import { randomBytes } from "node:crypto";
import { neededCredentials } from "../capability.js";
import type { ToolContext, ToolDefinition, ToolResult } from "../define.js";
import { CallContext, TimeoutError } from "./call-context.js";
import { ToolError } from "../errors.js";
import { formatIssues } from "../validation.js";
import { argsBounds, CONFIG_ADVICE, CONFIG_BOUNDS } from "../limits/args-bounds.js";
import { checkJsonBounds } from "../limits/json-bounds.js";
import { serializeWithin } from "../limits/result-bound.js";
import { dropOptionalNulls } from "../json/optional-nulls.js";
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

/**
 * Runs one tool call: parses and validates, runs the handler under its signal and timeout, and turns
 * every failure into one error message for `InvokeResponse.error`. Never throws.
 */
export function invokeTool(runtime: Runtime, input: InvokeInput, options: InvokeOptions = {}): Promise<InvokeOutcome> {
  const outcome = invokeNow(runtime, input, options);
  return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
}

/**
 * `invokeTool` for the gRPC handlers' hot path: answers synchronously when the handler does (no promise,
 * no timer, no tracking), else returns a promise of the outcome. `options.signal` is read only if the
 * call turns out to need one, so a caller may make it a lazy getter.
 */
export function invokeNow(runtime: Runtime, input: InvokeInput, options: InvokeOptions): InvokeOutcome | Promise<InvokeOutcome> {
  // The capability's declared concurrency (issue 10 item 7): a free slot is taken synchronously.
  const { calls } = runtime;
  if (!calls.tryTake()) return runtime.track(admitted(runtime, input, options));
  const outcome = invokeAdmitted(runtime, input, options);
  if (outcome instanceof Promise) return outcome.finally(() => calls.give());
  calls.give();
  return outcome;
}

/** A call that found every slot taken: waits its turn (bounded in count and time), or is refused. */
async function admitted(runtime: Runtime, input: InvokeInput, options: InvokeOptions): Promise<InvokeOutcome> {
  const started = performance.now();
  const waiting = new AbortController();
  const outer = [options.signal, runtime.shutdownSignal].filter((s) => s !== undefined);
  const onAbort = (event: Event) => waiting.abort((event.target as AbortSignal).reason);
  for (const signal of outer) {
    if (signal.aborted) waiting.abort(signal.reason);
    else signal.addEventListener("abort", onAbort, { once: true });
  }
  let release: () => void;
  try {
    release = await runtime.calls.acquire(waiting.signal);
  } catch (err) {
    const aborted = waiting.signal.aborted ? { reason: waiting.signal.reason } : undefined;
    return fail(runtime, input, started, errorMessage(runtime, input.toolName, err, aborted));
  } finally {
    for (const signal of outer) signal.removeEventListener("abort", onAbort);
  }
  try {
    return await invokeAdmitted(runtime, input, options);
  } finally {
    release();
  }
}

function invokeAdmitted(runtime: Runtime, input: InvokeInput, options: InvokeOptions): InvokeOutcome | Promise<InvokeOutcome> {
  const started = performance.now();
  const { capability } = runtime;
  if (capability.discovery) {
    // Dynamic tool set: the discovery call, and tools the configuration does not offer, end here.
    let routed: InvokeOutcome | undefined;
    try {
      routed = capability.discovery.route(input.toolName, input.configJson);
    } catch (err) {
      return fail(runtime, input, started, errorMessage(runtime, input.toolName, err, undefined));
    }
    if (routed) return routed.ok ? routed : fail(runtime, input, started, routed.error);
  }
  const def = capability.tools.get(input.toolName);
  if (!def) {
    const names = [...capability.tools.keys()].join(", ");
    return fail(runtime, input, started, `unknown tool ${JSON.stringify(input.toolName)}; this capability has: ${names}`);
  }
  let scope: CallContext | undefined;
  let output: unknown;
  try {
    // Arguments first: the model can fix them itself, a missing credential needs the user.
    const args = parseArgs(runtime, def, input);
    const ctx = (scope = new CallContext(runtime, def, input, options, readCallCredentials(runtime, def, input)));
    output = execute(def, args, ctx, options.onProgress);
  } catch (err) {
    scope?.dispose();
    return fail(runtime, input, started, errorMessage(runtime, input.toolName, err, scope?.abortReason));
  }
  // A handler that answered synchronously can't be cancelled or time out: no signal was ever needed.
  if (output instanceof Promise) return runtime.track(settle(runtime, def, input, scope, output, started));
  try {
    return succeed(runtime, def, input, output, started);
  } catch (err) {
    return fail(runtime, input, started, errorMessage(runtime, input.toolName, err, undefined));
  } finally {
    scope.dispose();
  }
}

async function settle(runtime: Runtime, def: ToolDefinition, input: InvokeInput, scope: CallContext, output: Promise<unknown>, started: number): Promise<InvokeOutcome> {
  try {
    return succeed(runtime, def, input, await untilAborted(output, scope.signal), started);
  } catch (err) {
    return fail(runtime, input, started, errorMessage(runtime, input.toolName, err, scope.abortReason));
  } finally {
    scope.dispose();
  }
}

function succeed(runtime: Runtime, def: ToolDefinition, input: InvokeInput, result: unknown, started: number): InvokeOutcome {
  const resultJson = serialize(runtime, def, input.toolName, result);
  if (runtime.debug) runtime.log.debug("tool call", { tool: input.toolName, ms: elapsed(started), outcome: "ok" });
  return { ok: true, resultJson };
}

function readCallCredentials(runtime: Runtime, def: ToolDefinition, input: InvokeInput): Record<string, string | undefined> {
  if (!runtime.hasCredentials) return noCredentials(input.configJson);
  const { capability } = runtime;
  checkJsonBounds(input.configJson, CONFIG_BOUNDS, "config_json", input.toolName, CONFIG_ADVICE);
  const config = parseJsonObject(input.configJson, "config_json", true);
  const credentials = readCredentials(config, capability.credentials, neededCredentials(def, capability.credentials), capability.id);
  runtime.rememberSecrets(Object.values(credentials));
  return credentials;
}

const EMPTY_CREDENTIALS: Record<string, string | undefined> = Object.freeze({});

/** A capability without credentials still refuses a malformed config_json, but skips parsing Selu's `{}`. */
function noCredentials(configJson: Uint8Array): Record<string, string | undefined> {
  const isEmptyObject = configJson.byteLength === 2 && configJson[0] === 0x7b && configJson[1] === 0x7d;
  if (!isEmptyObject) {
    checkJsonBounds(configJson, CONFIG_BOUNDS, "config_json", "this capability", CONFIG_ADVICE);
    parseJsonObject(configJson, "config_json", true);
  }
  return EMPTY_CREDENTIALS;
}

function parseArgs(runtime: Runtime, def: ToolDefinition, input: InvokeInput): unknown {
  checkJsonBounds(input.argsJson, argsBounds(def, runtime.capability.limits), "args_json", input.toolName);
  const raw = parseJsonObject(input.argsJson, "args_json");
  for (const key of APPROVAL_KEYS) delete raw[key];
  dropOptionalNulls(def.input, raw);
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

function serialize(runtime: Runtime, def: ToolDefinition, toolName: string, result: unknown): Buffer {
  if (result === null || typeof result !== "object" || Array.isArray(result)) {
    throw new Error(`tool ${toolName} returned ${Array.isArray(result) ? "an array" : typeof result}, not a JSON object`);
  }
  // Selu cuts results past 49,152 bytes and panics when the cut splits a character (issue 12).
  return serializeWithin(toolName, result as ToolResult, def.fit, () => {
    const ref = randomBytes(4).toString("hex");
    runtime.log.error("tool result over Selu's 49,152-byte bound: a bug in the tool", { tool: toolName, ref });
    return ref;
  });
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
  // The message may quote argument values (an address, a file name): only debug logs carry it.
  const fields = { tool: input.toolName, ms: elapsed(started), outcome: "error" };
  runtime.log.info("tool call failed", runtime.debug ? { ...fields, error } : fields);
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

function isAsyncGenerator(value: unknown): value is AsyncGenerator<unknown, unknown, void> {
  return typeof value === "object" && value !== null && typeof (value as AsyncGenerator).next === "function" &&
    Symbol.asyncIterator in value;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
