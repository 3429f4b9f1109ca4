import { randomUUID } from "node:crypto";
import { status, type ServiceError } from "@grpc/grpc-js";
import type { CapabilityClient } from "@selu-catalogue/proto";
import { ArtifactVault } from "./artifact-vault.js";
import { Containers } from "./containers.js";
import { credentialConfig } from "./credentials.js";
import { checkDuplicates, discoverOnce, type DiscoveredTool } from "./discovery.js";
import { invoke } from "./grpc-calls.js";
import { CallFailure, isObject, resultFindings, rewriteResultArtifacts } from "./rewrite-results.js";
import { checkSeluSchema } from "./schema-check.js";
import { parseSeluJson, stringifySeluJson } from "./selu-json.js";
import * as say from "./selu-wording.js";
import { SHARED_SLOT_WAIT_MS, Slots } from "./slots.js";
import { checkResultSize, SeluFinding } from "./result-size.js";
import { uploadAttachments } from "./upload-attachments.js";
import type { ArtifactSummary, CallerContext, CallOutcome, ContainerStarter, ManifestView, TranscriptEntry } from "./types.js";

type ToolSpec = ManifestView["tools"][number];
type Policy = "allow" | "ask" | "block";

interface Installed {
  manifest: ManifestView;
  containers: Containers;
  slots: Slots;
  tools: Map<string, ToolSpec>;
}

export interface OrchestratorOptions {
  /** Credentials as set in Selu's settings, by capability id then name (user and system scope alike). */
  credentials?: Record<string, Record<string, string>>;
  /**
   * Treat what Selu would cut, panic on or silently ignore in a result as a test failure (default true):
   * the call rejects with a {@link SeluFinding}. With `false` the finding is recorded and the call goes on
   * as Selu would (an oversized result is cut and marked).
   */
  strict?: boolean;
  /** How long a call waits for a free slot of a shared container (default Selu's 30 s). */
  sharedSlotWaitMs?: number;
  now?: () => number;
}

/** One call of a model's batch. */
export interface BatchCall {
  tool: string;
  /** The arguments as an object, or as the model's JSON text (to keep `3.0` apart from `3`). */
  args: Record<string, unknown> | string;
  caller?: CallerContext;
}

/**
 * An orchestrator double: calls capabilities exactly as Selu does (contract sections 2, 4 and 5) and
 * records a transcript. Tool names are `<capability id>__<tool>` as the model sends them.
 */
export class Orchestrator {
  readonly vault: ArtifactVault;
  readonly transcript: TranscriptEntry[] = [];
  readonly sessionId = randomUUID();
  /** Global tool policies set by discovery (`<id>__<tool>` -> policy), as Selu records them. Not enforced. */
  readonly policies = new Map<string, Policy>();
  /** Everything found in results that Selu would cut, panic on or ignore. */
  readonly findings: string[] = [];
  readonly #installed = new Map<string, Installed>();
  readonly #options: OrchestratorOptions;
  #turnArtifacts: ArtifactSummary[] = [];

  constructor(options: OrchestratorOptions = {}) {
    this.#options = options;
    this.vault = new ArtifactVault(options.now);
  }

  /**
   * Adds a capability. `target` is the address of a running process (every session and discovery talk to
   * it; readiness is awaited here as Selu does: Healthcheck every 200 ms, up to 30 s), or a
   * {@link ContainerStarter} that starts containers the way Selu's runner does: lazily, one per session
   * (exclusive) or one for all (shared), and a fresh one per discovery attempt. Dynamic capabilities are
   * asked for their tools.
   */
  async install(manifest: ManifestView, target: string | ContainerStarter): Promise<void> {
    const containers = new Containers(manifest, target);
    const slots = new Slots(manifest.sharing?.max_concurrent ?? 1);
    const installed: Installed = { manifest, containers, slots, tools: new Map(manifest.tools.map((t) => [t.name, t])) };
    if (typeof target === "string") await containers.client(containers.key(this.sessionId), this.sessionId);
    this.#installed.set(manifest.id, installed);
    if (manifest.tool_source === "dynamic") installed.tools = new Map((await this.discover(manifest.id)).map((t) => [t.name, t]));
  }

  /**
   * Runs dynamic discovery as Selu does: system credentials only (a required one unset fails without a
   * call), session `discovery-<id>-<32 hex>`, thread `tool-discovery`, `{}` as args, a fresh container per
   * attempt (with a starter), two attempts. A new tool's recommended policy (default block) becomes its
   * global policy; removed tools lose theirs. On failure it throws and the previous tools stay.
   */
  async discover(capabilityId: string): Promise<DiscoveredTool[]> {
    const cap = this.#get(capabilityId);
    let lastError: unknown;
    let tools: DiscoveredTool[] | undefined;
    for (let attempt = 0; attempt < 2 && !tools; attempt++) {
      try {
        tools = await this.#discoverOnce(cap);
      } catch (err) {
        lastError = err;
      }
    }
    if (!tools) throw lastError instanceof Error ? lastError : new Error(String(lastError));
    checkDuplicates(tools);
    const names = new Set(tools.map((t) => t.name));
    for (const old of cap.tools.keys()) if (!names.has(old)) this.policies.delete(`${capabilityId}__${old}`);
    for (const tool of tools) {
      if (!cap.tools.has(tool.name)) this.policies.set(`${capabilityId}__${tool.name}`, tool.recommended_policy ?? "block");
    }
    cap.tools = new Map(tools.map((t) => [t.name, { ...t, terminal_on_success: false }]));
    return tools;
  }

  /** One tool call the model makes on its own (a batch of one): a terminal tool ends the turn. */
  async call(qualifiedTool: string, args: Record<string, unknown> | string, caller: CallerContext = {}): Promise<CallOutcome> {
    const [outcome] = await this.callBatch([{ tool: qualifiedTool, args, ...(caller ? { caller } : {}) }]);
    return outcome!;
  }

  /**
   * Calls the model issued together: dispatched concurrently, as Selu does. With more than one call in the
   * batch, terminal mode is dropped and the model sees every result.
   */
  async callBatch(calls: readonly BatchCall[]): Promise<CallOutcome[]> {
    const alone = calls.length === 1;
    const outcomes = await Promise.all(calls.map((c) => this.#dispatch(c, alone)));
    return outcomes;
  }

  /** Calls of a shared capability in flight now and at most so far (Selu's `max_concurrent` slots). */
  sharedSlots(capabilityId: string): { busy: number; peak: number; size: number } {
    const { slots } = this.#get(capabilityId);
    return { busy: slots.busy, peak: slots.peak, size: slots.size };
  }

  /** Starts a new user turn: artifacts made so far are no longer attached to the next terminal reply. */
  newTurn(): void {
    this.#turnArtifacts = [];
  }

  async close(): Promise<void> {
    const all = [...this.#installed.values()];
    this.#installed.clear();
    await Promise.all(all.map((cap) => cap.containers.close()));
  }

  async #dispatch({ tool: qualified, args: raw, caller = {} }: BatchCall, alone: boolean): Promise<CallOutcome> {
    const log = (entry: TranscriptEntry) => this.transcript.push(entry);
    let args: unknown;
    try {
      args = typeof raw === "string" ? parseSeluJson(raw) : raw;
    } catch {
      throw new Error(`the model's arguments for ${qualified} are not JSON: ${raw as string}`);
    }
    log({ kind: "call", tool: qualified, args });
    const split = qualified.indexOf("__");
    const cap = split > 0 ? this.#installed.get(qualified.slice(0, split)) : undefined;
    const spec = cap?.tools.get(qualified.slice(split + 2));
    if (!cap || !spec) return this.#fail(qualified, say.notConfigured(qualified), "orchestrator", false);
    // The tool loop checks the schema subset before dispatch; the model is asked to regenerate the call.
    const problem = checkSeluSchema(args, spec.input_schema);
    if (problem) return this.#fail(qualified, say.validationFailed(qualified, problem), "orchestrator", false);
    const terminal = alone && spec.terminal_on_success === true;
    try {
      const text = await this.#invoke(cap, spec.name, qualified, args as Record<string, unknown>, caller, log);
      return this.#succeed(qualified, text, terminal);
    } catch (err) {
      if (!(err instanceof CallFailure)) throw err;
      const reported = err instanceof CapabilityError ? err.reported : undefined;
      return this.#fail(qualified, say.toolError(err.message), err instanceof CapabilityError ? "capability" : "orchestrator", terminal, reported);
    }
  }

  async #invoke(cap: Installed, toolName: string, qualified: string, parsed: Record<string, unknown>, caller: CallerContext, log: (e: TranscriptEntry) => void): Promise<string> {
    const { manifest, containers } = cap;
    const owner = caller.user ?? "user-1";
    const sessionId = caller.session ?? this.sessionId;
    const args: Record<string, unknown> = { ...parsed };
    delete args._approval_message;
    delete args._approval_message_i18n;
    const config = credentialConfig(manifest, this.#options.credentials?.[manifest.id], ["user", "system"], (name, scope) => {
      throw new CallFailure(scope === "user" ? say.missingUserCredential(manifest.id, name) : say.missingSystemCredential(manifest.id, name));
    });
    const release = containers.shared ? await cap.slots.acquire(this.#options.sharedSlotWaitMs ?? SHARED_SLOT_WAIT_MS) : () => {};
    if (!release) throw new CallFailure(say.sharedSlotTimedOut(manifest.id));
    try {
      const key = containers.key(sessionId);
      let client = await this.#client(containers, key, sessionId);
      if (Array.isArray(args.attachments)) {
        args.attachments = await uploadAttachments(args.attachments, { client, vault: this.vault, owner, tool: qualified, log });
      }
      log({ kind: "invoke", tool: qualified, capabilityId: manifest.id, toolName, args, config: mask(config) });
      const request = {
        toolName,
        argsJson: Buffer.from(stringifySeluJson(args)),
        configJson: Buffer.from(stringifySeluJson(config)),
        sessionId,
        capabilityId: manifest.id,
        threadId: caller.thread ?? "",
      };
      let res;
      try {
        res = await invoke(client, request);
      } catch (err) {
        // A shared container is re-invoked once in a fresh container after a transport failure.
        if (!containers.shared || (err as ServiceError).code !== status.UNAVAILABLE) throw new CallFailure(say.grpcFailed("invoke", err as ServiceError));
        await containers.replace(key);
        client = await this.#client(containers, key, sessionId);
        res = await invoke(client, request).catch((again: ServiceError) => {
          throw new CallFailure(say.grpcFailed("invoke", again));
        });
      }
      if (res.error) throw new CapabilityError(say.capabilityReturnedError(manifest.id, toolName, res.error), res.error);
      return await this.#readResult(res.resultJson, client, owner, qualified, log);
    } finally {
      release();
    }
  }

  /** result_json as Selu turns it into the text the model sees: UTF-8 required, artifacts rewritten. */
  async #readResult(bytes: Buffer, client: CapabilityClient, owner: string, tool: string, log: (e: TranscriptEntry) => void): Promise<string> {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new CapabilityError(say.NON_UTF8_RESULT);
    }
    let parsed: unknown;
    try {
      parsed = parseSeluJson(text);
    } catch {
      parsed = undefined; // Not JSON: Selu passes the text through as it is.
    }
    log({ kind: "raw-result", tool, result: parsed ?? text });
    if (!isObject(parsed)) return text;
    for (const finding of resultFindings(parsed)) this.#finding(tool, finding);
    const stored = await rewriteResultArtifacts(parsed, { client, vault: this.vault, owner, tool, log });
    this.#turnArtifacts.push(...stored);
    // Selu re-serialises only when it replaced an artifact; otherwise the capability's text goes through.
    return stored.length > 0 ? stringifySeluJson(parsed) : text;
  }

  #succeed(tool: string, fullText: string, terminal: boolean): CallOutcome {
    const text = checkResultSize(tool, fullText, (finding) => this.#finding(tool, finding));
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    const result = isObject(parsed) ? parsed : { result: parsed };
    if (!terminal) {
      this.transcript.push({ kind: "result", tool, result: parsed, text });
      return { ok: true, result, text };
    }
    return { ok: true, result, text, reply: this.#reply(tool, text) };
  }

  #fail(tool: string, error: string, stage: "orchestrator" | "capability", terminal: boolean, reported?: string): CallOutcome {
    this.transcript.push({ kind: "error", tool, error, stage });
    const outcome = { ok: false as const, error, ...(reported === undefined ? {} : { capabilityError: reported }) };
    return terminal ? { ...outcome, reply: this.#reply(tool, error) } : outcome;
  }

  /** A terminal tool's text becomes the user's final reply, with every artifact of the turn; the turn ends. */
  #reply(tool: string, text: string) {
    const reply = { text, attachments: this.#turnArtifacts };
    this.#turnArtifacts = [];
    this.transcript.push({ kind: "reply", tool, ...reply });
    return reply;
  }

  #finding(tool: string, finding: string): void {
    this.findings.push(finding);
    this.transcript.push({ kind: "finding", tool, finding });
    if (this.#options.strict ?? true) throw new SeluFinding(finding);
  }

  async #client(containers: Containers, key: string, sessionId: string): Promise<CapabilityClient> {
    try {
      return await containers.client(key, sessionId);
    } catch (err) {
      throw new CallFailure(`Failed to start capability '${containers.manifest.id}': ${(err as Error).message}`);
    }
  }

  #discoverOnce({ manifest, containers }: Installed): Promise<DiscoveredTool[]> {
    const config = credentialConfig(manifest, this.#options.credentials?.[manifest.id], ["system"], (name) => {
      throw new Error(say.discoveryWording.missingSystemCredential(manifest.id, name));
    });
    return discoverOnce(containers, config, this.sessionId);
  }

  #get(id: string): Installed {
    const cap = this.#installed.get(id);
    if (!cap) throw new Error(`capability ${id} is not installed`);
    return cap;
  }
}

/** A failure the capability reported (as opposed to one the orchestrator raised before dispatch). */
class CapabilityError extends CallFailure {
  /** `InvokeResponse.error` as the capability wrote it, when that is what failed. */
  constructor(
    message: string,
    readonly reported?: string,
  ) {
    super(message);
  }
}

function mask(config: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(config).map((k) => [k, "***"]));
}
