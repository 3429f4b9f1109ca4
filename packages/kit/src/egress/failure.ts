import { maxHeaderSize } from "node:http";
import { EgressError } from "./errors.js";
import type { HttpTimeouts } from "./http-types.js";

/** What a failed request was about, to word its error. */
export interface FailureContext {
  /** The URL's host (with a non-default port), for messages. */
  host: string;
  proxied: boolean;
  timeouts: HttpTimeouts;
  signal: AbortSignal | undefined;
}

// OpenSSL and Node codes of certificate and handshake failures.
const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/**
 * Turns whatever undici, net, tls or dns threw into the error to throw: the signal's reason when the
 * caller aborted (so cancellation stays cancellation), an {@link EgressError} as is (the SSRF guard and
 * the proxy tunnel word their own), otherwise a new EgressError saying what failed and where. Messages
 * name hosts only: never the URL, the proxy's credentials or header values. The original error stays
 * as `cause`, for logs.
 */
export function translateFailure(err: unknown, ctx: FailureContext): unknown {
  if (ctx.signal?.aborted) return ctx.signal.reason;
  if (err instanceof EgressError) return err;
  if (!(err instanceof Error)) return new EgressError("network", `the request to ${ctx.host} failed`, { cause: err });
  const code = (err as NodeJS.ErrnoException).code ?? "";
  const via = ctx.proxied ? " through the egress proxy" : "";
  switch (code) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return new EgressError("timeout", `could not connect to ${ctx.host}${via} within ${ctx.timeouts.connectMs} ms`, { cause: err });
    case "UND_ERR_HEADERS_TIMEOUT":
      return new EgressError("timeout", `${ctx.host} did not answer within ${ctx.timeouts.headersMs} ms`, { cause: err });
    case "UND_ERR_BODY_TIMEOUT":
      return new EgressError("timeout", `${ctx.host} did not send the whole response within ${ctx.timeouts.bodyMs} ms`, { cause: err });
    case "UND_ERR_HEADERS_OVERFLOW":
      // undici stops reading a head past Node's --max-http-header-size (16 KiB by default), not a network fault.
      return new EgressError("too_large", `the response head from ${ctx.host} is larger than ${Math.round(maxHeaderSize / 1024)} KiB`, { cause: err });
    case "UND_ERR_INVALID_ARG":
      return new EgressError("invalid_request", `invalid request to ${ctx.host}: ${err.message}`, { cause: err });
    case "UND_ERR_SOCKET":
    case "ECONNRESET":
    case "EPIPE":
      return new EgressError("network", `the connection to ${ctx.host}${via} closed before the response was complete`, { cause: err });
  }
  if (TLS_CODES.test(code)) {
    return new EgressError("tls", `the TLS connection to ${ctx.host} failed: ${err.message}`, { cause: err });
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new EgressError("network", `${ctx.host} could not be resolved (${code})`, { cause: err });
  }
  return new EgressError("network", `could not connect to ${ctx.host} (${code || err.message})`, { cause: err });
}
