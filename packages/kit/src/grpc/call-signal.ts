import type { ServerSurfaceCall } from "@grpc/grpc-js/build/src/server-call.js";

/** An AbortSignal for one call, and the function that detaches it once the call is answered. */
export interface CallSignal {
  signal: AbortSignal;
  /** Call before answering: grpc-js emits 'cancelled' when every stream closes, answered or not. */
  dispose(): void;
}

/** An AbortSignal that aborts when the client cancels the call or its deadline passes. */
export function callSignal(call: ServerSurfaceCall): CallSignal {
  const controller = new AbortController();
  const onCancel = () => controller.abort(new CallCancelledError());
  if (call.cancelled) onCancel();
  else call.once("cancelled", onCancel);
  return { signal: controller.signal, dispose: () => void call.removeListener("cancelled", onCancel) };
}

class CallCancelledError extends Error {
  override readonly name = "AbortError";
  constructor() {
    super("the call was cancelled by the client or its deadline passed");
  }
}
