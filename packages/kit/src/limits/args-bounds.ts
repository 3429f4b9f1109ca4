import type { ToolDefinition } from "../define.js";
import { MAX_MESSAGE_BYTES, type Limits } from "../limits.js";
import type { JsonBounds } from "./json-bounds.js";

/**
 * Default bounds on a call's `args_json`: strings up to a few MiB are cheap to parse, structure is not
 * (each parsed value costs tens of bytes of heap, more once validated), so values are bounded tightly.
 * A tool that takes big documents raises them with `tool({ args: {...} })`, sized from its own schema.
 */
export const DEFAULT_ARGS_BOUNDS: Readonly<JsonBounds> = Object.freeze({
  maxBytes: 4 * 1024 * 1024,
  maxValues: 10_000,
  maxDepth: 32,
});

/** Bounds on `config_json`, which holds only credential values (`{"NAME": "value", ...}`). */
export const CONFIG_BOUNDS: Readonly<JsonBounds> = Object.freeze({ maxBytes: 256 * 1024, maxValues: 1_000, maxDepth: 4 });

/** What a user can do about an oversized config_json: the credential values are set in Selu's settings. */
export const CONFIG_ADVICE = "check the credential values set for this capability in Selu's settings";

const resolved = new WeakMap<ToolDefinition<never>, Readonly<JsonBounds>>();

/** The bounds a tool's arguments are checked against: the tool's own over the capability's. */
export function argsBounds(def: ToolDefinition<never>, limits: Readonly<Limits>): Readonly<JsonBounds> {
  if (!def.args) return limits.args;
  let bounds = resolved.get(def);
  if (!bounds) resolved.set(def, (bounds = Object.freeze({ ...limits.args, ...def.args })));
  return bounds;
}

/**
 * The largest request message the transport accepts: the largest `args_json` any tool takes, plus
 * config_json and framing. gRPC holds a message two or three times over while receiving it (frames, the
 * joined message, then our check), so 16 MiB requests cost ~48 MiB each; bounded here, a larger one is
 * refused by its length prefix (RESOURCE_EXHAUSTED) before any of it is buffered.
 */
export function maxRequestBytes(tools: Iterable<ToolDefinition<never>>, limits: Readonly<Limits>): number {
  let largest = limits.args.maxBytes;
  for (const def of tools) largest = Math.max(largest, argsBounds(def, limits).maxBytes);
  return Math.min(MAX_MESSAGE_BYTES, largest + CONFIG_BOUNDS.maxBytes + 64 * 1024);
}

/** Room for uploads, downloads and health checks beside the calls, per connection. */
const TRANSFER_STREAMS = 2;

/**
 * HTTP/2 streams one connection may hold open: the calls that run and wait, and room for transfers.
 * A client past it waits for a stream (HTTP/2 flow control) instead of having its request buffered.
 */
export function maxStreams(limits: Readonly<Limits>): number {
  return limits.calls.max + limits.calls.maxWaiting + TRANSFER_STREAMS;
}
