import { neededCredentials } from "../capability.js";
import { ArgumentsError, outcomeKind, TimeoutError, ToolError, wireError, type OutcomeKind } from "../errors.js";
import { MAX_MESSAGE_BYTES } from "../limits.js";
import type { ToolDefinition, ToolResult } from "../tool.js";
import type { ToolContext } from "../tool-context.js";
import { formatIssues } from "../validation.js";
import { createToolContext } from "./call-context.js";
import { readCredentials } from "./credentials.js";
import { LinkedSignal, type CancelHook } from "./linked-signal.js";
import { parseJsonObject } from "./parse-json.js";
import type { Runtime } from "./runtime.js";

/** An Invoke request, whatever the transport. */
export interface InvokeInput {
  toolName: string;
  argsJson: Uint8Array;
  configJson: Uint8Array;
  sessionId: string;
  threadId: string;
  capabilityId: string;
}

/** What a call answers: the result's JSON, or the error the caller reads. */
export type InvokeOutcome = { ok: true; resultJson: Buffer } | { ok: false; error: string };

export interface InvokeOptions {
  /** Aborts when the client cancels or its deadline passes. */
  signal?: AbortSignal;
  /** The same from a transport's own cancel event, without an AbortSignal of its own (cheaper per call). */
  onCancel?: CancelHook;
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
 * Runs one tool call, whatever the transport: parses and validates, runs the handler under a signal
 * linked up front to the caller's, to shutdown and to the tool's timeout, and turns every failure into one
 * error message. Never rejects; the call is tracked until it is answered, for shutdown.
 */
export function invokeTool(runtime: Runtime, input: InvokeInput, options: InvokeOptions = {}): Promise<InvokeOutcome> {
  return runtime.track(invoke(runtime, input, options));
}

async function invoke(runtime: Runtime, input: InvokeInput, options: InvokeOptions): Promise<InvokeOutcome> {
  const started = performance.now();
  const { toolName } = input;
  const def = runtime.capability.tools.get(toolName);
  if (!def) {
    const names = [...runtime.capability.tools.keys()].join(", ");
    return fail(runtime, toolName, started, "unknown_tool", `unknown tool ${JSON.stringify(toolName)}; this capability has: ${names}`);
  }
  const timeoutMs = def.timeoutMs ?? runtime.capability.limits.toolTimeoutMs;
  const scope = new LinkedSignal([options.signal, options.onCancel, runtime.shutdownHook], timeoutMs, () => new TimeoutError(toolName, timeoutMs));
  const { signal } = scope;
  try {
    // Arguments first: the model can fix them itself, a missing credential needs the user.
    const args = parseArgs(def, input);
    const ctx = createToolContext(runtime, input, signal, readCallCredentials(runtime, def, input));
    // A call cancelled or shut down before it starts never runs its handler.
    signal.throwIfAborted();
    const result = await untilAborted(execute(def, args, ctx, options.onProgress), signal);
    return succeed(runtime, toolName, serialize(toolName, result), started);
  } catch (err) {
    const error = wireError(err, { subject: toolName, signal, log: runtime.toolLog(toolName) });
    return fail(runtime, toolName, started, outcomeKind(err, signal), error);
  } finally {
    scope.dispose();
  }
}

function succeed(runtime: Runtime, toolName: string, resultJson: Buffer, started: number): InvokeOutcome {
  if (resultJson.byteLength > RESULT_WARN_BYTES) {
    runtime.log.warn("large tool result: Selu truncates it in the model's context", { tool: toolName, bytes: resultJson.byteLength });
  }
  runtime.log.info("tool call", { tool: toolName, ms: elapsed(started), outcome: "ok" });
  return { ok: true, resultJson };
}

// Every call is one info line for operators: tool, duration, outcome kind. The error's message may quote
// argument values (an address, a file name): only debug logs carry it.
function fail(runtime: Runtime, toolName: string, started: number, outcome: OutcomeKind, error: string): InvokeOutcome {
  const fields = { tool: toolName, ms: elapsed(started), outcome };
  runtime.log.info("tool call", runtime.debug ? { ...fields, error } : fields);
  return { ok: false, error };
}

function readCallCredentials(runtime: Runtime, def: ToolDefinition, input: InvokeInput): Record<string, string | undefined> {
  if (!runtime.hasCredentials) return noCredentials(input.configJson);
  const { capability } = runtime;
  const config = parseJsonObject(input.configJson, "config_json", true);
  const credentials = readCredentials(config, capability.credentials, neededCredentials(def, capability.credentials), capability.id);
  runtime.rememberSecrets(Object.values(credentials));
  return credentials;
}

const EMPTY_CREDENTIALS: Record<string, string | undefined> = Object.freeze({});

/** A capability without credentials still refuses a malformed config_json, but skips parsing Selu's `{}`. */
function noCredentials(configJson: Uint8Array): Record<string, string | undefined> {
  const isEmptyObject = configJson.byteLength === 2 && configJson[0] === 0x7b && configJson[1] === 0x7d;
  if (!isEmptyObject) parseJsonObject(configJson, "config_json", true);
  return EMPTY_CREDENTIALS;
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
  throw new ArgumentsError(`invalid arguments for ${input.toolName}: ${formatIssues(parsed.error.issues)}${hint}`);
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

/**
 * Settles with `work`, or rejects with the signal's reason as soon as it aborts, even if `work` ignores the
 * signal. `work` always gets a handler first, so its settling after the call was answered (a tool that
 * finishes or fails after a cancel, a timeout or shutdown) is never an unhandled rejection.
 */
function untilAborted(work: unknown, signal: AbortSignal): Promise<unknown> {
  if (!isThenable(work)) return Promise.resolve(work);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    Promise.resolve(work).then(
      (value: unknown) => (signal.removeEventListener("abort", onAbort), resolve(value)),
      (err: unknown) => (signal.removeEventListener("abort", onAbort), reject(err)),
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
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

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === "function";
}

function isAsyncGenerator(value: unknown): value is AsyncGenerator<unknown, unknown, void> {
  return typeof value === "object" && value !== null && typeof (value as AsyncGenerator).next === "function" &&
    Symbol.asyncIterator in value;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
