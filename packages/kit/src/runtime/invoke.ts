import { attachmentIds } from "../artifacts/attachments.js";
import { neededCredentials } from "../capability.js";
import { randomBytes } from "node:crypto";
import { ArgumentsError, CredentialsError, outcomeKind, ToolError, wireError, type OutcomeKind } from "../errors.js";
import { fixOptionCase } from "../json/option-case.js";
import { dropOptionalNulls } from "../json/optional-nulls.js";
import { argsBounds, CONFIG_ADVICE, CONFIG_BOUNDS } from "../limits/args-bounds.js";
import { checkJsonBounds } from "../limits/json-bounds.js";
import { serializeWithin } from "../limits/result-bound.js";
import type { ToolDefinition, ToolResult } from "../tool.js";
import type { ToolContext } from "../tool-context.js";
import { formatIssues } from "../validation.js";
import { sliceWhole } from "../format.js";
import { createToolContext } from "./call-context.js";
import { readCredentials } from "./credentials.js";
import type { CancelHook } from "./linked-signal.js";
import { parseJsonObject } from "./parse-json.js";
import type { Release } from "../limits/work-slots.js";
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

/**
 * Runs one tool call, whatever the transport: parses and validates, runs the handler under a signal
 * linked up front to the caller's, to shutdown and to the tool's timeout, and turns every failure into one
 * error message. Never rejects; the call counts as in flight until it is answered, for shutdown.
 *
 * Every call takes this path: it makes only what the call needs (no log fields unless the line is
 * written, no promise for a tool that answers at once), measured by the kit bench (packages/kit/bench).
 */
export async function invokeTool(runtime: Runtime, input: InvokeInput, options: InvokeOptions = {}): Promise<InvokeOutcome> {
  const started = runtime.logsCalls ? performance.now() : 0;
  const { toolName } = input;
  const { capability } = runtime;
  const def = capability.tools.get(toolName);
  if (!def && !capability.discovery) return unknownTool(runtime, toolName, started);
  // The wait for a call slot counts against the tool's time: Selu's own deadline covers the whole call.
  const scope = runtime.link("call", toolName, def?.timeoutMs ?? capability.limits.toolTimeoutMs, options.signal).link(options.onCancel);
  const { signal } = scope;
  // The capability's declared concurrency (issue 10 item 7): a free slot is taken without a promise.
  let slot: Release | boolean = false;
  let pinned: string[] | undefined;
  // The handler's work while the call awaits it: it may run on after the call is answered cancelled.
  let work: PromiseLike<unknown> | undefined;
  try {
    slot = runtime.calls.tryTake() || (await runtime.calls.acquire(signal));
    // A dynamic tool set: the discovery call, and tools the configuration does not offer, end here.
    const config = capability.discovery ? readConfig(input) : undefined;
    const routed = config && capability.discovery?.route(toolName, config);
    if (routed) return routed.ok ? succeed(runtime, toolName, routed.resultJson, started) : fail(runtime, toolName, started, "unknown_tool", routed.error);
    if (!def) return unknownTool(runtime, toolName, started);
    // Arguments first: the model can fix them itself, a missing credential needs the user.
    const args = parseArgs(runtime, def, input);
    // The call's uploads stay until it ends, whatever other calls store meanwhile.
    pinned = attachmentIds(args);
    if (pinned) runtime.store.pin(pinned);
    const ctx = createToolContext(runtime, input, signal, readCallCredentials(runtime, def, config ?? readConfig(input)));
    // A call cancelled or shut down before it starts never runs its handler.
    signal.throwIfAborted();
    const output = execute(def, args, ctx, options.onProgress);
    const result = isThenable(output) ? await untilAborted((work = output), signal) : output;
    return succeed(runtime, toolName, serialize(runtime, def, toolName, result), started);
  } catch (err) {
    const error = wireError(err, { subject: toolName, signal, log: runtime.toolLog(toolName) });
    return fail(runtime, toolName, started, outcomeKind(err, signal), error);
  } finally {
    // Answered cancelled or timed out while the handler may still run: see releaseWhenSettled.
    if (work && signal.aborted) releaseWhenSettled(runtime, toolName, work, () => releaseCall(runtime, slot, pinned));
    else releaseCall(runtime, slot, pinned);
    scope.dispose();
  }
}

/** Gives back what a call held: its call slot (taken at once or after a wait) and its uploads' pins. */
function releaseCall(runtime: Runtime, slot: Release | boolean, pinned: string[] | undefined): void {
  if (slot === true) runtime.calls.give();
  else if (slot) slot();
  if (pinned) runtime.store.unpin(pinned);
}

/**
 * Gives a call's slot and its uploads back once its handler's work ends, though the call was answered
 * before (cancelled, timed out, shut down): a handler that does not stop at its signal still uses memory
 * and CPU, and a client cancelling call after call must not get more than `calls.max` handlers running.
 * After `calls.cancelGraceMs` they are given back anyway, with a warning: a handler that never ends must
 * not take a slot for good.
 */
function releaseWhenSettled(runtime: Runtime, toolName: string, work: PromiseLike<unknown>, release: () => void): void {
  const graceMs = runtime.capability.limits.calls.cancelGraceMs;
  let released = false;
  const settle = () => {
    if (released) return;
    released = true;
    clearTimeout(timer);
    release();
  };
  // Cleared when the work settles first, so it fires only for a handler still running.
  const timer = setTimeout(() => {
    runtime.toolLog(toolName).warn("a cancelled call's handler still runs; its call slot is given back", { graceMs });
    settle();
  }, graceMs);
  timer.unref();
  work.then(settle, settle);
}

function unknownTool(runtime: Runtime, toolName: string, started: number): InvokeOutcome {
  const names = [...runtime.capability.tools.keys()].join(", ");
  return fail(runtime, toolName, started, "unknown_tool", `unknown tool ${JSON.stringify(toolName)}; this capability has: ${names}`);
}

function succeed(runtime: Runtime, toolName: string, resultJson: Buffer, started: number): InvokeOutcome {
  if (runtime.logsCalls) runtime.log.info("tool call", { tool: toolName, ms: elapsed(started), outcome: "ok" });
  return { ok: true, resultJson };
}

// Every call is one info line for operators: tool, duration, outcome kind. The error's message may quote
// argument values (an address, a file name): only debug logs carry it.
function fail(runtime: Runtime, toolName: string, started: number, outcome: OutcomeKind, whole: string): InvokeOutcome {
  const error = bounded(whole);
  if (runtime.logsCalls) {
    const fields = { tool: toolName, ms: elapsed(started), outcome };
    runtime.log.info("tool call", runtime.debug ? { ...fields, error } : fields);
  }
  return { ok: false, error };
}

/**
 * The most of an error sent, in UTF-16 units (at most 3 bytes each in UTF-8, a surrogate pair 4). Selu
 * shows an error to the model as a tool result, whose bound a longer one would meet (contract section 2:
 * cut, or its turn panics); none of the kit's errors comes near, but a tool's may quote what it was given.
 */
export const MAX_ERROR_CHARS = 4_000;

/** `error` within {@link MAX_ERROR_CHARS}, marked when cut. */
function bounded(error: string): string {
  return error.length <= MAX_ERROR_CHARS ? error : `${sliceWhole(error, MAX_ERROR_CHARS)}… (error shortened)`;
}

const EMPTY_CONFIG: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * The call's config_json, within its bounds. Even a capability without credentials refuses a malformed
 * one, but Selu's usual `{}` is not parsed.
 */
function readConfig(input: InvokeInput): Readonly<Record<string, unknown>> {
  const bytes = input.configJson;
  if (bytes.byteLength === 2 && bytes[0] === 0x7b && bytes[1] === 0x7d) return EMPTY_CONFIG;
  try {
    checkJsonBounds(bytes, CONFIG_BOUNDS, "config_json", input.toolName, CONFIG_ADVICE);
  } catch (err) {
    // The user sets credentials, not the model: reported (and logged) as a credentials problem.
    throw err instanceof ToolError ? new CredentialsError(err.message) : err;
  }
  return parseJsonObject(bytes, "config_json", true);
}

const EMPTY_CREDENTIALS: Record<string, string | undefined> = Object.freeze({});

function readCallCredentials(runtime: Runtime, def: ToolDefinition, config: Readonly<Record<string, unknown>>): Record<string, string | undefined> {
  if (!runtime.hasCredentials) return EMPTY_CREDENTIALS;
  const { capability } = runtime;
  const credentials = readCredentials(config, capability.credentials, neededCredentials(def, capability.credentials), capability.id);
  runtime.rememberSecrets(Object.values(credentials));
  return credentials;
}

/** The tool's repair of `raw` (true when it changed anything); a ToolError it throws is an argument error. */
function repaired(def: ToolDefinition, raw: Record<string, unknown>, toolName: string): boolean {
  try {
    return def.repair?.(raw) ?? false;
  } catch (err) {
    if (err instanceof ToolError && !(err instanceof ArgumentsError)) throw new ArgumentsError(`invalid arguments for ${toolName}: ${err.message}`);
    throw err;
  }
}

function parseArgs(runtime: Runtime, def: ToolDefinition, input: InvokeInput): unknown {
  // Size and structure before parsing (issue 10 item 1): JSON.parse of a small deep or wide text is costly.
  const shape = checkJsonBounds(input.argsJson, argsBounds(def, runtime.capability.limits), "args_json", input.toolName);
  const raw = parseJsonObject(input.argsJson, "args_json");
  for (const key of APPROVAL_KEYS) if (key in raw) delete raw[key];
  // Models send null for an optional argument they leave out (contract section 3).
  if (shape.nulls) dropOptionalNulls(def.input, raw);
  let parsed = def.input.safeParse(raw);
  if (parsed.success) return parsed.data;
  // What the tool knows models write in another shape, then an option in another case ("a4",
  // "Landscape"), are taken as meant: refused, an argument can end the user's turn. Again after a fix: a
  // union's branch, once its discriminator is fixed, reports its own options.
  let changed = repaired(def, raw, input.toolName);
  for (let round = 0; round < 3; round++) {
    changed = fixOptionCase(parsed.error.issues, raw) || changed;
    if (!changed) break;
    // A union's branch found only now (its discriminator was in another case) reads its nulls too.
    if (shape.nulls) dropOptionalNulls(def.input, raw);
    parsed = def.input.safeParse(raw);
    if (parsed.success) return parsed.data;
    changed = false;
  }
  const known = Object.keys(def.input.shape);
  const hint = parsed.error.issues.some((i) => i.code === "unrecognized_keys" && i.path.length === 0) ? ` (the tool takes: ${known.join(", ") || "no arguments"})` : "";
  throw new ArgumentsError(`invalid arguments for ${input.toolName}: ${formatIssues(parsed.error.issues, undefined, { schema: def.input, value: raw })}${hint}`);
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
function untilAborted(work: PromiseLike<unknown>, signal: AbortSignal): Promise<unknown> {
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

function serialize(runtime: Runtime, def: ToolDefinition, toolName: string, result: unknown): Buffer {
  if (result === null || typeof result !== "object" || Array.isArray(result)) {
    throw new Error(`tool ${toolName} returned ${Array.isArray(result) ? "an array" : typeof result}, not a JSON object`);
  }
  // Selu cuts results past 49,152 bytes and panics when the cut splits a character (issue 12).
  return serializeWithin(toolName, result as ToolResult, def.fit, () => {
    const ref = randomBytes(4).toString("hex");
    runtime.toolLog(toolName).error("tool result over Selu's 49,152-byte bound: a bug in the tool", { ref });
    return ref;
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === "function";
}

function isAsyncGenerator(value: unknown): value is AsyncGenerator<unknown, unknown, void> {
  return typeof value === "object" && value !== null && typeof (value as AsyncGenerator).next === "function" && Symbol.asyncIterator in value;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
