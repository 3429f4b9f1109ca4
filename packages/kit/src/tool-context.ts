import type net from "node:net";
import type tls from "node:tls";
import type { ArtifactAccess } from "./artifacts/access.js";
import type { HttpClient } from "./egress/http-types.js";
import type { TunnelRequest } from "./egress/outbound.js";
import type { Limits } from "./limits.js";
import type { CallSlots } from "./limits/work-slots.js";
import type { Logger } from "./log.js";

/** One credential as the manifest declares it; its value reaches tools through `config_json`. */
export interface CredentialSpec {
  scope: "user" | "system";
  /** Default true, as in Selu. */
  required?: boolean;
  description: string;
  /** Selu's credential_type (default `secret`). */
  type?: string;
}

/** A capability's credentials by name (UPPER_SNAKE_CASE). */
export type CredentialSpecs = Record<string, CredentialSpec>;

/** Credential values as a tool sees them: required ones are strings, optional ones may be missing. */
export type CredentialValues<C extends CredentialSpecs> = {
  readonly [K in keyof C]: C[K] extends { required: false } ? string | undefined : string;
};

/** Opens a TCP (or TLS) connection to `host:port` through Selu's egress proxy, under the call's signal. */
export type OpenTunnel = (host: string, port: number, request?: TunnelRequest) => Promise<net.Socket | tls.TLSSocket>;

/** What every tool run receives besides its arguments. */
export interface ToolContext<C extends CredentialSpecs = CredentialSpecs> {
  /** Aborts on client cancellation, deadline, the tool's timeout or shutdown. Pass it to all I/O. */
  readonly signal: AbortSignal;
  readonly toolName: string;
  readonly capabilityId: string;
  readonly sessionId: string;
  readonly threadId: string;
  readonly credentials: CredentialValues<C>;
  /** Store output artifacts and read input ones (`attachments[]`). */
  readonly artifacts: ArtifactAccess;
  readonly log: Logger;
  readonly limits: Readonly<Limits>;
  /**
   * The capability's heavy-work slots (`limits.workSlots`), waited for under this call's signal:
   * `await ctx.slots.run(() => render(doc), 1)`; a weight above the pool's size takes all of it.
   */
  readonly slots: CallSlots;
  /**
   * Outbound HTTP through Selu's egress proxy, with the capability's timeouts, response cap and the SSRF
   * guard. Pass `signal` with every request.
   */
  readonly http: HttpClient;
  /** A TCP/TLS connection through Selu's egress proxy, for protocols other than HTTP (SMTP, IMAP). */
  readonly openTunnel: OpenTunnel;
}
