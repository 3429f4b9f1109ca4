import { CallArtifacts } from "../artifacts/access.js";
import { BoundSlots } from "../limits/work-slots.js";
import type { ToolContext } from "../tool-context.js";
import type { Runtime } from "./runtime.js";

/** Who a call comes from, as the transport tells it. */
export interface CallIdentity {
  toolName: string;
  sessionId: string;
  threadId: string;
}

/**
 * The `ctx` a handler gets for one call: a plain object made up front, every field a value, under the
 * call's already linked signal. Needed credentials were checked by the caller; a tool narrowing `needs`
 * reads the others as optional.
 */
export function createToolContext(runtime: Runtime, call: CallIdentity, signal: AbortSignal, credentials: Readonly<Record<string, string | undefined>>): ToolContext {
  const { egress } = runtime;
  return {
    signal,
    toolName: call.toolName,
    capabilityId: runtime.capability.id,
    sessionId: call.sessionId,
    threadId: call.threadId,
    credentials: credentials as ToolContext["credentials"],
    artifacts: new CallArtifacts(runtime.store, signal),
    log: runtime.toolLog(call.toolName),
    limits: runtime.capability.limits,
    slots: new BoundSlots(runtime.slots, signal),
    http: egress.http,
    openTunnel: (host, port, request) => egress.openTunnel(host, port, { signal, ...request }),
  };
}
