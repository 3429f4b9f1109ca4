import { ToolError } from "../errors.js";
import { formatCount, sliceWhole } from "../format.js";

// A tool's result (tool.ts's ToolResult), spelt out here so tool.ts can import FitResult without a cycle.
type ToolResult = Record<string, unknown>;

/**
 * Selu cuts a tool result longer than this many UTF-8 bytes, and its turn panics when the cut falls
 * inside a character (contract section 2). The kit never sends more; the testkit checks the same bound.
 */
export const MAX_RESULT_BYTES = 49_152;

/**
 * A tool's own way to make an over-long result fit: returns a smaller result (a string cut with a
 * marker, list entries dropped with a note). The kit serializes it again and checks it once more.
 */
export type FitResult<R extends ToolResult = ToolResult> = (result: R, maxBytes: number) => R;

/** What a shortened string ends with, so the model and the user can tell it was cut. */
export const SHORTENED_MARKER = "\n[… shortened to fit the result limit]";

/**
 * A `fit` that cuts the string at top-level `key` (never inside a character) and adds a marker; with
 * `flag`, also sets that key to true (e.g. `body_truncated`).
 *
 * @example
 * tool({
 *   description: "Reads one message",
 *   input: z.object({ id: z.string() }),
 *   policy: "allow",
 *   run: ({ id }) => ({ id, body: "…", body_truncated: false }),
 *   fit: shortenString("body", { flag: "body_truncated" }),
 * });
 */
export function shortenString(key: string, options: { flag?: string } = {}): <R extends ToolResult>(result: R, maxBytes: number) => R {
  return <R extends ToolResult>(result: R, maxBytes: number): R => {
    const text = result[key];
    if (typeof text !== "string") return result;
    const flagged = options.flag ? { ...result, [options.flag]: true } : result;
    const rest = jsonBytes({ ...flagged, [key]: "" });
    const room = maxBytes - rest - jsonBytes(SHORTENED_MARKER) + 2;
    return { ...flagged, [key]: room > 0 ? cutToJsonBytes(text, room) + SHORTENED_MARKER : SHORTENED_MARKER.trimStart() } as R;
  };
}

/**
 * Serializes a tool's result within Selu's bound: as is when it fits, else through the tool's `fit`.
 * A result that still doesn't fit is a bug in the tool: a ToolError saying so, with `ref` to find the
 * details in the logs (never the result itself, which may quote user data).
 */
export function serializeWithin(toolName: string, result: ToolResult, fit: FitResult | undefined, ref: () => string, maxBytes = MAX_RESULT_BYTES): Buffer {
  const json = Buffer.from(JSON.stringify(result), "utf8");
  if (json.byteLength <= maxBytes) return json;
  if (fit) {
    const fitted = Buffer.from(JSON.stringify(fit(result, maxBytes)), "utf8");
    if (fitted.byteLength <= maxBytes) return fitted;
  }
  throw new ToolError(
    `${toolName} made a result of ${formatCount(json.byteLength)} bytes, over the ${formatCount(maxBytes)} bytes Selu accepts; ` +
      `this is a bug in the capability, not in your request (reference ${ref()}); asking for less (a smaller page, fewer characters) may work`,
  );
}

/** How many leading `items` fit in `room` bytes as a JSON array (brackets and commas counted); linear. */
export function itemsWithin(items: readonly unknown[], room: number): number {
  let used = 2;
  for (let i = 0; i < items.length; i++) {
    used += jsonBytes(items[i]) + (i > 0 ? 1 : 0);
    if (used > room) return i;
  }
  return items.length;
}

/** UTF-8 bytes of a value as JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), "utf8");
}

/** The longest start of `text` whose JSON string form (quotes excluded) fits in `max` bytes; surrogate pairs kept whole. */
export function cutToJsonBytes(text: string, max: number): string {
  const size = (s: string) => jsonBytes(s) - 2;
  if (size(text) <= max) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (size(text.slice(0, mid)) <= max) low = mid;
    else high = mid - 1;
  }
  return sliceWhole(text, low);
}
