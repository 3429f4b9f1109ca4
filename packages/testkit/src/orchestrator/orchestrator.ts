import { randomUUID } from "node:crypto";
import type { CapabilityClient } from "@selu-catalogue/proto";
import { ArtifactVault } from "./artifact-vault.js";
import { connect, healthcheck, invoke, upload } from "./grpc-calls.js";
import { CallFailure, isObject, resultFindings, rewriteResultArtifacts } from "./rewrite-results.js";
import { checkSeluSchema } from "./schema-check.js";
import type { CallerContext, CallOutcome, ManifestView, TranscriptEntry } from "./types.js";

interface Installed {
  manifest: ManifestView;
  client: CapabilityClient;
  tools: Map<string, { input_schema: unknown }>;
}

export interface OrchestratorOptions {
  /** Credentials as set in Selu's settings, by capability id then name (user and system scope alike). */
  credentials?: Record<string, Record<string, string>>;
  /** Fail a call when its result holds something Selu ignores (default true: tests should see it). */
  strict?: boolean;
  now?: () => number;
}

/**
 * An orchestrator double: calls capabilities exactly as Selu does (contract sections 2, 4 and 5) and
 * records a transcript. Tool names are `<capability id>__<tool>` as the model sends them.
 */
export class Orchestrator {
  readonly vault: ArtifactVault;
  readonly transcript: TranscriptEntry[] = [];
  readonly sessionId = randomUUID();
  readonly #installed = new Map<string, Installed>();
  readonly #options: OrchestratorOptions;

  constructor(options: OrchestratorOptions = {}) {
    this.#options = options;
    this.vault = new ArtifactVault(options.now);
  }

  /**
   * Adds a running capability and waits for readiness as Selu does (Healthcheck every 200 ms, up to
   * 30 s). Dynamic capabilities are asked for their tools.
   */
  async install(manifest: ManifestView, address: string): Promise<void> {
    const client = connect(address);
    const started = Date.now();
    while (!(await healthcheck(client))) {
      if (Date.now() - started > 30_000) {
        client.close();
        throw new Error(`${manifest.id} did not report ready within 30 s`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const installed: Installed = { manifest, client, tools: new Map(manifest.tools.map((t) => [t.name, t])) };
    this.#installed.set(manifest.id, installed);
    if (manifest.tool_source === "dynamic") installed.tools = await this.discover(manifest.id);
  }

  /** Runs dynamic discovery as Selu does and validates the answer the same way. */
  async discover(capabilityId: string): Promise<Map<string, { input_schema: unknown }>> {
    const cap = this.#get(capabilityId);
    const name = cap.manifest.discovery_tool_name ?? "list_tools";
    const res = await invoke(cap.client, {
      toolName: name,
      argsJson: Buffer.from("{}"),
      configJson: Buffer.from(JSON.stringify(this.#config(cap.manifest, ["system"]))),
      sessionId: `discovery-${capabilityId}-${randomUUID().replaceAll("-", "").slice(0, 8)}`,
      capabilityId,
      threadId: "tool-discovery",
    });
    if (res.error) throw new Error(`discovery failed: ${res.error}`);
    const parsed: unknown = JSON.parse(res.resultJson.toString("utf8"));
    if (!Array.isArray(parsed)) throw new Error("discovery failed: the result must be a top-level JSON array of tools");
    const tools = new Map<string, { input_schema: unknown }>();
    for (const item of parsed) {
      if (!isObject(item) || typeof item.name !== "string" || item.name === "") throw new Error("discovery failed: a tool has an empty name");
      if (tools.has(item.name)) throw new Error(`discovery failed: duplicate tool name ${item.name}`);
      if (typeof item.description !== "string" || !isObject(item.input_schema)) {
        throw new Error(`discovery failed: tool ${item.name} needs a description and an input_schema`);
      }
      tools.set(item.name, { input_schema: item.input_schema });
    }
    return tools;
  }

  /** Calls `<id>__<tool>` with the model's arguments; returns what the model would see. */
  async call(qualifiedTool: string, args: Record<string, unknown>, caller: CallerContext = {}): Promise<CallOutcome> {
    const log = (entry: TranscriptEntry) => this.transcript.push(entry);
    log({ kind: "call", tool: qualifiedTool, args });
    try {
      const result = await this.#call(qualifiedTool, args, caller, log);
      log({ kind: "result", tool: qualifiedTool, result });
      return { ok: true, result };
    } catch (err) {
      if (!(err instanceof CallFailure)) throw err;
      const stage = err instanceof CapabilityError ? "capability" : "orchestrator";
      log({ kind: "error", tool: qualifiedTool, error: err.message, stage });
      return { ok: false, error: err.message };
    }
  }

  async close(): Promise<void> {
    for (const cap of this.#installed.values()) cap.client.close();
    this.#installed.clear();
  }

  async #call(qualified: string, raw: Record<string, unknown>, caller: CallerContext, log: (e: TranscriptEntry) => void) {
    const split = qualified.indexOf("__");
    if (split <= 0) throw new CallFailure(`unknown tool ${qualified}`);
    const capabilityId = qualified.slice(0, split);
    const toolName = qualified.slice(split + 2);
    const cap = this.#installed.get(capabilityId);
    const spec = cap?.tools.get(toolName);
    if (!cap || !spec) throw new CallFailure(`unknown tool ${qualified}`);
    const owner = caller.user ?? "user-1";

    const args: Record<string, unknown> = { ...raw };
    delete args._approval_message;
    delete args._approval_message_i18n;
    const problem = checkSeluSchema(args, spec.input_schema);
    if (problem) throw new CallFailure(`invalid arguments: ${problem}`);

    if (Array.isArray(args.attachments)) {
      args.attachments = await this.#uploadAttachments(args.attachments, cap.client, owner, qualified, log);
    }
    const config = this.#config(cap.manifest, ["user", "system"]);
    log({ kind: "invoke", tool: qualified, capabilityId, toolName, args, config: mask(config) });
    const res = await invoke(cap.client, {
      toolName,
      argsJson: Buffer.from(JSON.stringify(args)),
      configJson: Buffer.from(JSON.stringify(config)),
      sessionId: caller.session ?? this.sessionId,
      capabilityId,
      threadId: caller.thread ?? "",
    });
    if (res.error) throw new CapabilityError(res.error);
    let result: unknown;
    try {
      result = JSON.parse(res.resultJson.toString("utf8"));
    } catch {
      throw new CapabilityError("the capability returned result_json that is not JSON");
    }
    log({ kind: "raw-result", tool: qualified, result });
    if (!isObject(result)) return { result } as Record<string, unknown>;
    for (const finding of resultFindings(result)) {
      log({ kind: "finding", tool: qualified, finding });
      if (this.#options.strict ?? true) throw new CapabilityError(finding);
    }
    return rewriteResultArtifacts(result, { client: cap.client, vault: this.vault, owner, tool: qualified, log });
  }

  async #uploadAttachments(list: unknown[], client: CapabilityClient, owner: string, tool: string, log: (e: TranscriptEntry) => void) {
    const out: unknown[] = [];
    for (const element of list) {
      if (!isObject(element) || typeof element.artifact_id !== "string" || typeof element.capability_artifact_id === "string") {
        out.push(element);
        continue;
      }
      const found = this.vault.take(owner, element.artifact_id);
      if ("error" in found) throw new CallFailure(found.error);
      const res = await upload(client, found.bytes, found.filename, found.mimeType);
      if (res.error) throw new CapabilityError(`attachment upload failed: ${res.error}`);
      const { artifact_id: _dropped, ...rest } = element;
      log({
        kind: "upload", tool, artifactId: found.artifactId, capabilityArtifactId: res.capabilityArtifactId,
        filename: found.filename, mimeType: found.mimeType, sizeBytes: res.sizeBytes,
        chunks: Math.max(1, Math.ceil(found.bytes.byteLength / (256 * 1024))),
      });
      out.push({ ...rest, capability_artifact_id: res.capabilityArtifactId, filename: found.filename, mime_type: found.mimeType, size_bytes: res.sizeBytes });
    }
    return out;
  }

  /** config_json: exactly the declared credentials that are set, nothing else. */
  #config(manifest: ManifestView, scopes: readonly ("user" | "system")[]): Record<string, string> {
    const set = this.#options.credentials?.[manifest.id] ?? {};
    const config: Record<string, string> = {};
    for (const c of manifest.credentials) {
      const value = set[c.name];
      if (scopes.includes(c.scope) && value !== undefined) config[c.name] = value;
    }
    return config;
  }

  #get(id: string): Installed {
    const cap = this.#installed.get(id);
    if (!cap) throw new Error(`capability ${id} is not installed`);
    return cap;
  }
}

/** A failure the capability reported (as opposed to one the orchestrator raised before dispatch). */
class CapabilityError extends CallFailure {}

function mask(config: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(config).map((k) => [k, "***"]));
}
