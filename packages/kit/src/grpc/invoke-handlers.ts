import type { ServerUnaryCall, ServerWritableStream, sendUnaryData } from "@grpc/grpc-js";
import type { InvokeChunk, InvokeRequest, InvokeResponse } from "@selu-catalogue/proto";
import { invokeNow, type InvokeOutcome } from "../runtime/invoke.js";
import type { Runtime } from "../runtime/runtime.js";
import { CallSignal } from "./call-signal.js";

const EMPTY = Buffer.alloc(0);

/** Invoke: the result or the error, in one response. */
export function handleInvoke(runtime: Runtime) {
  return (call: ServerUnaryCall<InvokeRequest, InvokeResponse>, callback: sendUnaryData<InvokeResponse>): void => {
    const cancel = new CallSignal(call);
    const answer = (outcome: InvokeOutcome) => {
      cancel.dispose();
      callback(null, outcome.ok ? { resultJson: outcome.resultJson, error: "" } : { resultJson: EMPTY, error: outcome.error });
    };
    // The cancel object goes in as the options: its signal is only made if the tool needs one.
    const outcome = invokeNow(runtime, call.request, cancel);
    if (outcome instanceof Promise) void outcome.then(answer);
    else answer(outcome);
  };
}

/**
 * StreamInvoke: each value a tool yields as one chunk of JSON (`done: false`), then the result JSON
 * with `done: true`, or an error chunk with `done: true`.
 */
export function handleStreamInvoke(runtime: Runtime) {
  return (call: ServerWritableStream<InvokeRequest, InvokeChunk>): void => {
    const onProgress = (value: unknown) => {
      if (!call.cancelled) call.write({ data: Buffer.from(JSON.stringify(value ?? null)), done: false, error: "" });
    };
    const cancel = new CallSignal(call);
    const answer = (outcome: InvokeOutcome) => {
      cancel.dispose();
      if (call.cancelled) return;
      call.write(outcome.ok ? { data: outcome.resultJson, done: true, error: "" } : { data: EMPTY, done: true, error: outcome.error });
      call.end();
    };
    const outcome = invokeNow(runtime, call.request, {
      get signal() {
        return cancel.signal;
      },
      onProgress,
    });
    if (outcome instanceof Promise) void outcome.then(answer);
    else answer(outcome);
  };
}
