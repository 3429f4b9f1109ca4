import { z } from "zod";
import type { Policy } from "./description.js";
import type { JsonBounds } from "./limits/json-bounds.js";
import type { FitResult } from "./limits/result-bound.js";
import type { CredentialSpecs, ToolContext } from "./tool-context.js";

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
  /**
   * Rewrites, in place, what models commonly write for this tool's arguments in a shape the schema does
   * not take (another name for a block type, a key), into the schema's own; true when it changed
   * anything. Called only after a failed parse, then the arguments are parsed again: a valid call pays
   * nothing, and the schema models see stays the one source of truth. What it finds no meaning for that
   * the schema can't word (a row's key matching no column) it refuses with a ToolError naming the field
   * (`sections[0].content[1].rows[0]: …`), which the call reports as an argument error.
   */
  repair?: (args: Record<string, unknown>) => boolean;
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
  readonly repair: ((args: Record<string, unknown>) => boolean) | undefined;
  run(args: unknown, ctx: ToolContext<C>): ToolOutput<ToolResult>;
}

/**
 * Defines one tool. Unknown top-level arguments are refused (a misspelt key would otherwise be
 * dropped silently), so the input schema is made strict.
 */
export function tool<I extends InputSchema, R extends ToolResult, C extends CredentialSpecs = CredentialSpecs>(spec: ToolSpec<I, R, C>): ToolDefinition<C> {
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
    repair: spec.repair,
    run: spec.run as ToolDefinition<C>["run"],
  };
}

/** Helpers handed to the `tools` function of `defineCapability`, typed with its credentials. */
export interface ToolHelpers<C extends CredentialSpecs> {
  tool<I extends InputSchema, R extends ToolResult>(spec: ToolSpec<I, R, C>): ToolDefinition<C>;
}
