import { readFileSync, unwatchFile, watchFile } from "node:fs";
import type { Capability } from "../capability.js";
import { CONFIG_BOUNDS } from "../limits/args-bounds.js";
import type { Logger } from "../log.js";

/** The credentials of an MCP server, as Selu would send them in `config_json`. */
export interface McpConfig {
  /** `{"NAME": "value"}` for each declared credential that is set. */
  readonly values: Readonly<Record<string, string>>;
  /** The same as the bytes every call carries. */
  readonly json: Buffer;
}

/**
 * Credentials come from environment variables named as in the manifest (`SMTP_HOST`, ...), and from a
 * `--config` file (a JSON object of the same names) over them. Only declared names are read, so the
 * process environment (HTTPS_PROXY, PATH, ...) never reaches a tool.
 */
export function readMcpConfig(capability: Capability, env: Record<string, string | undefined>, file: string | undefined): McpConfig {
  const values: Record<string, string> = {};
  const fromFile = file ? readConfigFile(file) : {};
  for (const name of Object.keys(capability.credentials)) {
    const value = fromFile[name] ?? env[name];
    if (typeof value === "string" && value !== "") values[name] = value;
  }
  return { values, json: Buffer.from(JSON.stringify(values)) };
}

function readConfigFile(file: string): Record<string, unknown> {
  const text = readFileSync(file, "utf8");
  if (Buffer.byteLength(text) > CONFIG_BOUNDS.maxBytes) throw new Error(`--config ${file}: over ${CONFIG_BOUNDS.maxBytes} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`--config ${file}: not JSON (${(err as Error).message})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error(`--config ${file}: expected a JSON object of credential names to values`);
  return parsed as Record<string, unknown>;
}

/**
 * Re-reads the `--config` file when it changes (polled once a second, which survives editors that
 * replace the file) and hands the new configuration on; a file that no longer parses keeps the last one.
 * Returns the stop function.
 */
export function watchMcpConfig(capability: Capability, env: Record<string, string | undefined>, file: string, log: Logger, changed: (config: McpConfig) => void): () => void {
  const onChange = () => {
    try {
      changed(readMcpConfig(capability, env, file));
      log.info("configuration re-read", { file });
    } catch (err) {
      log.warn("configuration not re-read: keeping the last one", { file, error: (err as Error).message });
    }
  };
  watchFile(file, { interval: 1000, persistent: false }, onChange);
  return () => unwatchFile(file, onChange);
}
