import type { InvokeChunk, InvokeRequest, InvokeResponse } from "@selu-catalogue/proto";
import { invokeTool } from "../runtime/invoke.js";
import type { Runtime } from "../runtime/runtime.js";
import { onCallCancelled } from "./call-cancelled.js";
import type { Respond, ResponseStream, SingleRequestCall } from "./server/index.js";

const EMPTY = Buffer.alloc(0);

/** Invoke: the result or the error, in one response. */
export function handleInvoke(runtime: Runtime) {
  return (call: SingleRequestCall<InvokeRequest>, respond: Respond<InvokeResponse>): void => {
    void invokeTool(runtime, call.request, { onCancel: onCallCancelled(call) }).then((outcome) => {
      respond(null, outcome.ok ? { resultJson: outcome.resultJson, error: "" } : { resultJson: EMPTY, error: outcome.error });
    });
  };
}

/**
 * StreamInvoke: each value a tool yields as one chunk of JSON (`done: false`), then the result JSON
 * with `done: true`, or an error chunk with `done: true`.
 */
export function handleStreamInvoke(runtime: Runtime) {
  return (call: SingleRequestCall<InvokeRequest> & ResponseStream<InvokeChunk>): void => {
    const onProgress = (value: unknown) => {
      if (!call.cancelled) call.write({ data: Buffer.from(JSON.stringify(value ?? null)), done: false, error: "" });
    };
    void invokeTool(runtime, call.request, { onCancel: onCallCancelled(call), onProgress }).then((outcome) => {
      if (call.cancelled) return;
      call.write(outcome.ok ? { data: outcome.resultJson, done: true, error: "" } : { data: EMPTY, done: true, error: outcome.error });
      call.end();
    });
  };
}
