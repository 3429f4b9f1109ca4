/**
 * JSON as Selu's orchestrator (serde_json without `preserve_order`) reads and writes it: a number written
 * with a fraction or exponent (`3.0`, `1e3`) stays a float, so it is not an `integer` for the schema check
 * and is re-serialised as a float; an integer literal outside i64/u64 is a float too; objects are written
 * with their keys sorted and no whitespace.
 */

/** A number the JSON text wrote as a float (`3.0`, `1e3`), which serde_json keeps apart from integers. */
export class JsonFloat {
  constructor(readonly value: number) {}
  /** In transcripts and other plain JSON it is just the number. */
  toJSON(): number {
    return this.value;
  }
}

const I64_MIN = -(2n ** 63n);
const U64_MAX = 2n ** 64n - 1n;

/**
 * Parses JSON text as serde_json would see it: floats come back as {@link JsonFloat}, integers as numbers.
 * Throws a SyntaxError for text that is not JSON.
 */
export function parseSeluJson(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => {
    if (typeof value !== "number" || context?.source === undefined) return value;
    return isIntegerLiteral(context.source) ? value : new JsonFloat(value);
  });
}

/** True when `value` is what serde_json calls an integer (`as_i64()` or `as_u64()` is Some). */
export function isSeluInteger(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 64;
}

/** True for any JSON number, integer or float. */
export function isSeluNumber(value: unknown): boolean {
  return typeof value === "number" || value instanceof JsonFloat;
}

/** Serialises as `serde_json::to_string` does for a `Value`: compact, object keys sorted by byte order. */
export function stringifySeluJson(value: unknown): string {
  if (value instanceof JsonFloat) return formatFloat(value.value);
  if (typeof value === "number") return isSeluInteger(value) ? value.toFixed(0) : formatFloat(value);
  if (Array.isArray(value)) return `[${value.map((item) => stringifySeluJson(item ?? null)).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => compareBytes(a, b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stringifySeluJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function isIntegerLiteral(source: string): boolean {
  if (/[.eE]/.test(source)) return false;
  const big = BigInt(source);
  return big >= I64_MIN && big <= U64_MAX;
}

/** serde_json writes finite f64 with ryu: always a `.` or an exponent, `1e21` rather than `1e+21`. */
function formatFloat(n: number): string {
  if (!Number.isFinite(n)) return "null";
  const text = String(n).replace("e+", "e");
  return /[.e]/.test(text) ? text : `${text}.0`;
}

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
