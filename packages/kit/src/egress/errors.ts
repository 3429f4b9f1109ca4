import { ToolError } from "../errors.js";
import type { HttpResponse } from "./http-types.js";

/**
 * Why an outbound call failed, for code that branches on it (retry on `timeout`, explain `proxy_refused`):
 * - `invalid_request`: the call itself is wrong (scheme, header injection, credentials in the URL);
 * - `blocked_address`: the target is a private, loopback or otherwise internal address (SSRF guard);
 * - `proxy_refused`: the egress proxy answered the CONNECT with 403 or another non-2xx status;
 * - `proxy_auth`: the egress proxy wants (other) credentials (407);
 * - `proxy_unreachable`: the egress proxy itself could not be reached, or hung up before answering;
 * - `timeout`: connecting, the response head or the body took longer than allowed;
 * - `too_large`: the response body passed the size cap;
 * - `tls`: the TLS handshake failed (untrusted or mismatched certificate);
 * - `network`: the target could not be reached or the connection broke;
 * - `http_status`: the target answered a non-2xx status (from `fetchJson`);
 * - `invalid_response`: the target answered something unusable (not JSON).
 */
export type EgressErrorCode =
  | "invalid_request"
  | "blocked_address"
  | "proxy_refused"
  | "proxy_auth"
  | "proxy_unreachable"
  | "timeout"
  | "too_large"
  | "tls"
  | "network"
  | "http_status"
  | "invalid_response";

/**
 * A failed outbound call. It is a {@link ToolError}: its message is written for the user and the model
 * (what failed, which host, what to change) and is safe to send: it names the target's host, never the
 * full URL (queries carry API keys), proxy credentials or header values. The cause stays for logs only.
 */
export class EgressError extends ToolError {
  readonly code: EgressErrorCode;
  /** The HTTP status behind `proxy_refused`, `proxy_auth` and `http_status`. */
  readonly status: number | undefined;
  /** The whole response behind `http_status` and `invalid_response`, for callers that read error bodies. */
  readonly response: HttpResponse | undefined;

  constructor(code: EgressErrorCode, message: string, options: EgressErrorOptions = {}) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? options.response?.status;
    this.response = options.response;
  }
}

/** Details of an {@link EgressError} beyond its message. */
export interface EgressErrorOptions {
  /** The underlying error, kept for logs; never part of the message. */
  cause?: unknown;
  status?: number;
  response?: HttpResponse;
}
