import { invokeCapability } from "@selu-catalogue/testkit/orchestrator";
import type { World } from "./world.js";

/** How one raw call ended. */
export type Answer =
  | { kind: "result"; bytes: number }
  | { kind: "error"; message: string }
  /** A gRPC status: RESOURCE_EXHAUSTED for a message over 16 MiB is an answer; anything else is not. */
  | { kind: "status"; code: number; message: string };

const RESOURCE_EXHAUSTED = 8;

/**
 * Invokes `tool` with `argsJson` as they are (no orchestrator checks: a misbehaving client), with the
 * world's credentials. Resolves with how it ended; never rejects.
 */
export async function rawCall(world: World, tool: string, argsJson: Buffer, deadlineMs = 60_000): Promise<Answer> {
  try {
    const res = await invokeCapability(
      world.client,
      { toolName: tool, argsJson, configJson: Buffer.from(JSON.stringify(world.config)), sessionId: "reliability", capabilityId: world.cap.id, threadId: "" },
      { deadlineMs },
    );
    return res.error ? { kind: "error", message: res.error } : { kind: "result", bytes: res.resultJson.byteLength };
  } catch (err) {
    const e = err as { code?: number; details?: string; message?: string };
    return { kind: "status", code: e.code ?? -1, message: e.details ?? e.message ?? String(err) };
  }
}

/** True when the call answered as a capability must: a result, a tool error, or a message over the wire limit refused. */
export function answered(answer: Answer): boolean {
  return answer.kind !== "status" || answer.code === RESOURCE_EXHAUSTED;
}
