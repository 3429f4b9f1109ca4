import { randomUUID } from "node:crypto";
import type { ServiceError } from "@grpc/grpc-js";
import type { Containers } from "./containers.js";
import { invoke } from "./grpc-calls.js";
import { stringifySeluJson } from "./selu-json.js";
import { capabilityReturnedError, discoveryWording as say, grpcFailed } from "./selu-wording.js";

/** One tool a dynamic capability reported, as Selu keeps it (never terminal_on_success). */
export interface DiscoveredTool {
  name: string;
  description: string;
  input_schema: unknown;
  /** allow/ask/block, or undefined when absent or any other string (Selu drops it). */
  recommended_policy: "allow" | "ask" | "block" | undefined;
}

/**
 * Reads a discovery answer with Selu's rules (`parse_discovery_payload`): a top-level JSON array (so
 * `{"tools": [...]}` is refused); each element needs string `name` and `description` and an
 * `input_schema` of any JSON (null included); `recommended_policy` may be absent or null, must otherwise be
 * a string, and is dropped when it is not allow/ask/block; a name empty after trimming is an error.
 * Throws an Error in Selu's words.
 */
export function parseDiscoveryPayload(text: string): DiscoveredTool[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(say.invalidJson);
  }
  if (!Array.isArray(value)) throw new Error(say.notArray);
  return value.map((item: unknown) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) throw new Error(say.invalidItem("expected struct DiscoveryTool"));
    const tool = item as Record<string, unknown>;
    for (const field of ["name", "description", "input_schema"]) {
      if (!(field in tool)) throw new Error(say.invalidItem(`missing field \`${field}\``));
    }
    if (typeof tool.name !== "string") throw new Error(say.invalidItem("name: expected a string"));
    if (typeof tool.description !== "string") throw new Error(say.invalidItem("description: expected a string"));
    const policy = tool.recommended_policy;
    if (policy !== undefined && policy !== null && typeof policy !== "string") throw new Error(say.invalidItem("recommended_policy: expected a string"));
    if (tool.name.trim() === "") throw new Error(say.emptyName);
    return {
      name: tool.name,
      description: tool.description,
      input_schema: tool.input_schema,
      recommended_policy: policy === "allow" || policy === "ask" || policy === "block" ? policy : undefined,
    };
  });
}

/** Selu checks duplicates once an attempt succeeded (so a duplicate is not retried). */
export function checkDuplicates(tools: readonly DiscoveredTool[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) throw new Error(say.duplicate(tool.name));
    seen.add(tool.name);
  }
}

/**
 * One discovery attempt as Selu makes it (`discover_tools_once`): `Invoke <discovery_tool_name>` with
 * `{}`, the system credentials in `config`, session `discovery-<id>-<32 hex>` and thread
 * `tool-discovery`, in a fresh container stopped afterwards (with a fixed address: in that process, under
 * the session `fallbackSession` uses for its client).
 */
export async function discoverOnce(containers: Containers, config: Record<string, string>, fallbackSession: string): Promise<DiscoveredTool[]> {
  const { manifest } = containers;
  const tool = manifest.discovery_tool_name ?? "list_tools";
  const sessionId = `discovery-${manifest.id}-${randomUUID().replaceAll("-", "")}`;
  const container =
    typeof containers.target === "string" ? { client: await containers.client(containers.key(fallbackSession), fallbackSession), stop: async () => {} } : await containers.discovery(sessionId);
  try {
    const request = { toolName: tool, argsJson: Buffer.from("{}"), configJson: Buffer.from(stringifySeluJson(config)), sessionId, capabilityId: manifest.id, threadId: "tool-discovery" };
    const res = await invoke(container.client, request).catch((err: ServiceError) => {
      throw new Error(grpcFailed("invoke", err));
    });
    if (res.error) throw new Error(capabilityReturnedError(manifest.id, tool, res.error));
    return parseDiscoveryPayload(res.resultJson.toString("utf8"));
  } finally {
    await container.stop();
  }
}
