import { ArgumentsError } from "../errors.js";
import { formatBytes, formatCount } from "../format.js";

/**
 * Bounds on a JSON request field, checked over its bytes before it is parsed (issue 10 item 1: 2 MiB of
 * `{"text":[{},{},…]}` parsed into 700,000 objects exhausted a 48 MiB heap). Bytes bound what strings
 * cost; values and depth bound what the parsed structure costs, which is many times its text.
 */
export interface JsonBounds {
  /** Largest size of the JSON text, in bytes. */
  maxBytes: number;
  /** Most values in all (objects, arrays, strings, numbers, literals; the root counts). */
  maxValues: number;
  /** Deepest nesting of objects and arrays (the root object is level 1). */
  maxDepth: number;
}

/** What a scan found: the JSON text's size, values and depth (for messages and tests). */
export interface JsonShape {
  bytes: number;
  values: number;
  depth: number;
  /** Whether a `null` literal occurs (outside strings, an `n` starts nothing else): else no null needs dropping. */
  nulls: boolean;
}

const ARGS_ADVICE = "pass large content as a file (an artifact in attachments) or split the work into several calls";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const LETTER_N = 0x6e;

/**
 * Measures `bytes` as JSON in one linear pass, stopping as soon as a bound is passed, and throws a
 * ArgumentsError (a ToolError) naming the field, the bound and what to do. It does not validate:
 * `JSON.parse` does that afterwards, on text that is now known to be small enough to parse.
 *
 * Called as `checkJsonBounds(input.argsJson, { maxBytes: 4 << 20, maxValues: 10_000, maxDepth: 32 }, "args_json", "send_email")`.
 *
 * @throws ArgumentsError when the text is larger, holds more values or nests deeper than `bounds` allow.
 */
export function checkJsonBounds(bytes: Uint8Array, bounds: JsonBounds, field: string, toolName: string, advice = ARGS_ADVICE): JsonShape {
  if (bytes.byteLength > bounds.maxBytes) {
    throw new ArgumentsError(`${field} is ${formatBytes(bytes.byteLength)}, over the ${formatBytes(bounds.maxBytes)} ${toolName} accepts; ${advice}`);
  }
  // values = 1 (the root) + one per comma + one per container that holds anything (its first element).
  let values = bytes.byteLength > 0 ? 1 : 0;
  let depth = 0;
  let deepest = 0;
  let opened = false;
  let nulls = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte <= 0x20) continue; // whitespace (and bytes JSON.parse will refuse)
    if (opened) {
      opened = false;
      if (byte !== CLOSE_BRACE && byte !== CLOSE_BRACKET) values++;
    }
    if (byte === QUOTE) {
      i = stringEnd(bytes, i);
      continue;
    }
    if (byte === COMMA) values++;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      opened = true;
      if (++depth > deepest) deepest = depth;
      if (depth > bounds.maxDepth) {
        throw new ArgumentsError(`${field} nests objects and arrays deeper than ${bounds.maxDepth} levels, the most ${toolName} accepts; flatten the arguments`);
      }
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
    else {
      if (byte === LETTER_N) nulls = true;
      continue;
    }
    if (values > bounds.maxValues) {
      throw new ArgumentsError(
        `${field} holds more than ${formatCount(bounds.maxValues)} values (items, fields, numbers and strings together), ` +
          `the most ${toolName} accepts in one call; send fewer items or split the work into several calls`,
      );
    }
  }
  return { bytes: bytes.byteLength, values, depth: deepest, nulls };
}

/** Index of the quote closing the string opened at `start` (or the end), skipping escaped characters. */
function stringEnd(bytes: Uint8Array, start: number): number {
  for (let i = start + 1; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === BACKSLASH) i++;
    else if (byte === QUOTE) return i;
  }
  return bytes.length;
}
