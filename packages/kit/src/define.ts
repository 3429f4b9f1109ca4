import { z } from "zod";
import type { ArtifactAccess } from "./artifacts/access.js";
import type { HttpClient } from "./egress/http-types.js";
import type { Egress } from "./runtime/egress.js";
import type { Limits } from "./limits.js";
import type { JsonBounds } from "./limits/json-bounds.js";
import type { CallSlots } from "./limits/work-slots.js";
import type { FitResult } from "./limits/result-bound.js";
import type { Logger } from "./log.js";

/** Selu's tool policies: allow runs at once, ask needs the user's approval, block never runs. */
export type Policy = "allow" | "ask" | "block";

/** One credential as the manifest declares it; its value reaches tools through `config_json`. */
export interface CredentialSpec {
  scope: "user" | "system";
  /** Default true, as in Selu. */
  required?: boolean;
  description: string;
  /** Selu's credential_type (default `secret`). */
  type?: string;
}

export type CredentialSpecs = Record<string, CredentialSpec>;

/** Credential values as a tool sees them: required ones are strings, optional ones may be missing. */
export type CredentialValues<C extends CredentialSpecs> = {
  readonly [K in keyof C]: C[K] extends { required: false } ? string | undefined : string;
};

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
  readonly openTunnel: Egress["openTunnel"];
}

/** A tool's result: a JSON object. Put artifacts under `artifact` or `artifacts`, as Selu reads them. */
export type ToolResult = Record<string, unknown>;

/** A tool may return its result, or yield progress (StreamInvoke streams it) and then return it. */
export type ToolOutput<R extends ToolResult> = R | Promise<R> | AsyncGenerator<unknown, R, void>;

export type InputSchema = z.ZodObject;

export interface ToolSpec<I extends InputSchema, R extends ToolResult, C extends CredentialSpecs> {
  /** What the tool does, for the model: when to use it, what it returns. */
  description: string;
  /** The one schema: manifest JSON Schema, run-time validation and the handler's argument type. */
  input: I;
  /** Recommended policy; Selu's default for an absent policy is block, so it is required here. */
  policy: Policy;
  /** The agent's turn ends when this tool succeeds (produce-and-done tools). */
  terminalOnSuccess?: boolean;
  /** Overrides the capability's tool timeout for this tool, in ms. */
  timeoutMs?: number;
  /** Raises (or lowers) the capability's bounds on this tool's `args_json`; size them from the schema's own limits. */
  args?: Partial<JsonBounds>;
  /**
   * How this tool shortens a result over Selu's 49,152-byte bound (e.g. `shortenString("body")`).
   * Without it, such a result is refused as a bug of the tool, never sent.
   */
  fit?: FitResult<NoInfer<R>>;
  /**
   * Credentials this tool needs; calls fail early with a clear error when one is missing.
   * Default: every credential declared `required`.
   */
  needs?: readonly (keyof C & string)[];
  run(args: z.output<I>, ctx: ToolContext<C>): ToolOutput<R>;
}

/** A defined tool, as the kit holds it. */
export interface ToolDefinition<C extends CredentialSpecs = CredentialSpecs> {
  readonly description: string;
  readonly input: InputSchema;
  readonly policy: Policy;
  readonly terminalOnSuccess: boolean;
  readonly timeoutMs: number | undefined;
  readonly args: Partial<JsonBounds> | undefined;
  readonly fit: FitResult | undefined;
  readonly needs: readonly string[] | undefined;
  run(args: unknown, ctx: ToolContext<C>): ToolOutput<ToolResult>;
}

/**
 * Defines one tool. Unknown top-level arguments are refused (a misspelt key would otherwise be
 * dropped silently), so the input schema is made strict.
 */
export function tool<I extends InputSchema, R extends ToolResult, C extends CredentialSpecs = CredentialSpecs>(
  spec: ToolSpec<I, R, C>,
): ToolDefinition<C> {
  if (!(spec.input instanceof z.ZodObject)) {
    throw new TypeError("tool(): input must be a z.object(...) schema, because tool arguments are a JSON object");
  }
  if (!spec.description.trim()) throw new TypeError("tool(): description must not be empty");
  return {
    description: spec.description,
    input: spec.input.strict(),
    policy: spec.policy,
    terminalOnSuccess: spec.terminalOnSuccess ?? false,
    timeoutMs: spec.timeoutMs,
    args: spec.args,
    fit: spec.fit as FitResult | undefined,
    needs: spec.needs,
    run: spec.run as ToolDefinition<C>["run"],
  };
}

/** Helpers handed to the `tools` function of `defineCapability`, typed with its credentials. */
export interface ToolHelpers<C extends CredentialSpecs> {
  tool<I extends InputSchema, R extends ToolResult>(spec: ToolSpec<I, R, C>): ToolDefinition<C>;
}
