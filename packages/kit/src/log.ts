import { formatIsoTime } from "./format.js";
import type { SecretMask } from "./secrets/secret-mask.js";

/** Severity of a log record; records below the logger's level are dropped before formatting. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** Structured fields of a record: values must be safe to log (no argument values, no secrets). */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** The logger every kit piece and tool receives; library code never calls `console`. */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every record. */
  child(fields: LogFields): Logger;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface JsonLoggerOptions {
  level?: LogLevel;
  /** Where lines go; stdout by default. */
  write?: (line: string) => void;
  /** Credential values replaced by `[redacted]` wherever they appear, in any of their forms. */
  mask?: SecretMask;
}

/**
 * A logger writing one JSON object per line: `{"time","level","msg",...fields}`.
 * Secret values known to the kit are masked in every string field, as a second line of defence.
 */
export function createJsonLogger(options: JsonLoggerOptions = {}, base: LogFields = {}): Logger {
  const min = ORDER[options.level ?? "info"];
  const write = options.write ?? writeStdout;
  const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (ORDER[level] < min) return;
    const line = JSON.stringify({ time: formatIsoTime(Date.now()), level, msg, ...base, ...fields });
    const pattern = options.mask?.pattern();
    write(`${pattern ? line.replace(pattern, "[redacted]") : line}\n`);
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    child: (fields) => createJsonLogger(options, { ...base, ...fields }),
  };
}

const guarded = new WeakSet<NodeJS.WritableStream>();
/**
 * Writes log lines to `stream` (stderr when stdout carries a protocol, as MCP over stdio does). A closed
 * stream (EPIPE when a log reader goes away) must not crash the server: its lines are dropped.
 */
export function writeLinesTo(stream: NodeJS.WritableStream): (line: string) => void {
  return (line) => {
    if (!guarded.has(stream)) {
      guarded.add(stream);
      stream.on("error", () => {});
    }
    stream.write(line);
  };
}

const writeStdout = writeLinesTo(process.stdout);

/** Parses LOG_LEVEL; unknown values fall back to info. */
export function parseLogLevel(value: string | undefined): LogLevel {
  return value === "debug" || value === "info" || value === "warn" || value === "error" ? value : "info";
}

/** A logger that drops everything; for tests and embedding. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};
