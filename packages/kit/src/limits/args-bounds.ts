import { MAX_MESSAGE_BYTES, type Limits } from "../limits.js";
import type { JsonBounds } from "./json-bounds.js";

/** Bounds on `config_json`, which holds only credential values (`{"NAME": "value", ...}`). */
export const CONFIG_BOUNDS: Readonly<JsonBounds> = Object.freeze({ maxBytes: 256 * 1024, maxValues: 1_000, maxDepth: 4 });

/** What a user can do about an oversized config_json: the credential values are set in Selu's settings. */
export const CONFIG_ADVICE = "check the credential values set for this capability in Selu's settings";

/** What the bounds read of a tool (a `ToolDefinition`): the bounds it raises or lowers, if any. */
export interface ArgsOverride {
  readonly args?: Partial<JsonBounds> | undefined;
}

const resolved = new WeakMap<ArgsOverride, Readonly<JsonBounds>>();

/** The bounds a tool's arguments are checked against: the tool's own over the capability's. */
export function argsBounds(def: ArgsOverride, limits: Readonly<Limits>): Readonly<JsonBounds> {
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
export function maxRequestBytes(tools: Iterable<ArgsOverride>, limits: Readonly<Limits>): number {
  let largest = limits.args.maxBytes;
  for (const def of tools) largest = Math.max(largest, argsBounds(def, limits).maxBytes);
  return Math.min(MAX_MESSAGE_BYTES, largest + CONFIG_BOUNDS.maxBytes + 64 * 1024);
}

/**
 * Streams for transfers beside the calls: Selu multiplexes every session over one connection, and each
 * running call may have an attachment arriving or an artifact leaving at once; plus two for health checks.
 * Transfer memory is bounded by the store's share and the download buffer, not by this.
 */
function transferStreams(limits: Readonly<Limits>): number {
  return limits.calls.max + 2;
}

/**
 * Streams a connection is told it may open, at the least. RFC 9113 (6.5.2) recommends no fewer than 100,
 * and a bound that clients reach costs calls: a client at the bound sends a queued call in the same packet
 * as it cancels or ends another, and Node, which forgets a closed stream only on its next turn of the event
 * loop, resets the new one (ENHANCE_YOUR_CALM, grpc-js: "Bandwidth exhausted"). A burst of 32 calls on
 * the pdf capability's 28 met it in one conformance run of six.
 */
const MIN_ADVERTISED_STREAMS = 100;

/**
 * HTTP/2 streams one connection may run at once (the one place that decides it): the calls that run and
 * wait, and room for transfers. As many again may wait behind them unread, and more up to 100 in all,
 * each holding at most one flow-control window of its request; clients are told the sum and queue the
 * rest themselves.
 */
export function maxStreams(limits: Readonly<Limits>): { running: number; waiting: number } {
  const running = limits.calls.max + limits.calls.maxWaiting + transferStreams(limits);
  return { running, waiting: Math.max(running, MIN_ADVERTISED_STREAMS - running) };
}
