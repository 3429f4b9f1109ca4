import { ArgumentsError, CredentialsError } from "../errors.js";

/**
 * Parses a JSON object sent by the orchestrator; empty bytes mean `{}`.
 * `field` names the request field in errors (`args_json`, `config_json`). With `secret`, the parser's
 * message is left out, because V8 quotes a piece of the input in it. Errors are an `ArgumentsError`, or a
 * `CredentialsError` for the secret `config_json`.
 */
export function parseJsonObject(bytes: Uint8Array, field: string, secret = false): Record<string, unknown> {
  const Failure = secret ? CredentialsError : ArgumentsError;
  if (bytes.byteLength === 0) return {};
  let value: unknown;
  try {
    // gRPC hands over Buffers already: a view is made only for another transport's plain Uint8Array.
    const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    value = JSON.parse(buffer.toString("utf8"));
  } catch (err) {
    if (secret || !(err instanceof SyntaxError)) throw new Failure(`${field} is not valid JSON`);
    throw new Failure(`${field} is not valid JSON (${err.message})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Failure(`${field} must be a JSON object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`);
  }
  return value as Record<string, unknown>;
}
