import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { ToolError, wireError } from "../errors.js";
import { invokeTool } from "../runtime/invoke.js";
import type { Runtime } from "../runtime/runtime.js";
import type { McpConfig } from "./config.js";
import { linkArtifacts, readArtifact, resolveAttachments } from "./files.js";

/** What every MCP session of one process shares: the runtime, the tool list, the current configuration. */
export interface McpShared {
  readonly runtime: Runtime;
  readonly version: string;
  /** Every tool, as MCP lists it (converted once). */
  readonly tools: readonly Tool[];
  /** The configuration calls carry now (changes when `--config` does). */
  config(): McpConfig;
  /** Whether the server is shutting down (new calls are refused). */
  closing(): boolean;
}

/**
 * One MCP session's server (the low-level SDK `Server`, so the JSON Schemas the manifest is written from
 * are listed as they are): tools/list, tools/call through the runtime's `invokeTool` (the same parsing,
 * validation, limits, errors and logs as an Invoke), and resources/read of the files tools return.
 */
export function createMcpServer(shared: McpShared, sessionId: () => string): Server {
  const { runtime } = shared;
  const { capability } = runtime;
  const server = new Server({ name: capability.id, version: shared.version }, { capabilities: { tools: { listChanged: capability.discovery !== undefined }, resources: {}, logging: {} } });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: offeredTools(shared) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    if (shared.closing()) return toolError(`${name} was stopped: the capability is shutting down; try again`);
    let argsJson: Buffer;
    try {
      argsJson = Buffer.from(JSON.stringify(resolveAttachments(runtime, request.params.arguments ?? {})));
    } catch (err) {
      return toolError(wireError(err, { subject: name, log: runtime.toolLog(name) }));
    }
    const progressToken = request.params._meta?.progressToken;
    let progress = 0;
    // Progress notifications leave before the result: a client drops progress of a finished request.
    let sent: Promise<unknown> = Promise.resolve();
    const outcome = await invokeTool(
      runtime,
      { toolName: name, argsJson, configJson: shared.config().json, sessionId: sessionId(), threadId: "", capabilityId: capability.id },
      {
        signal: extra.signal,
        ...(progressToken === undefined
          ? {}
          : {
              onProgress: (value: unknown) => {
                const params = { progressToken, progress: ++progress, message: JSON.stringify(value ?? null) };
                sent = sent.then(() => extra.sendNotification({ method: "notifications/progress", params })).catch(() => {});
              },
            }),
      },
    );
    await sent;
    if (!outcome.ok) return toolError(outcome.error);
    const text = outcome.resultJson.toString("utf8");
    // Most results name no file: those are passed on as they are, without parsing them again.
    if (!text.includes('"capability_artifact_id"')) return { content: [{ type: "text", text }] };
    const { result, links } = linkArtifacts(runtime, JSON.parse(text) as Record<string, unknown>);
    return { content: [{ type: "text", text: JSON.stringify(result) }, ...links] };
  });

  // Files are reachable by the uri a result gave, never listed: another session's files stay unseen.
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    try {
      return readArtifact(runtime, request.params.uri);
    } catch (err) {
      if (err instanceof ToolError) throw new McpError(ErrorCode.InvalidParams, err.message);
      throw err;
    }
  });
  return server;
}

/** The tools this configuration offers: all of them, or what discovery offers (contract section 5). */
export function offeredTools(shared: McpShared): Tool[] {
  const { discovery } = shared.runtime.capability;
  if (!discovery) return [...shared.tools];
  const answer = discovery.route(discovery.toolName, shared.config().values);
  if (!answer?.ok) return [];
  const names = new Set((JSON.parse(answer.resultJson.toString("utf8")) as { name: string }[]).map((t) => t.name));
  return shared.tools.filter((t) => names.has(t.name));
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}
