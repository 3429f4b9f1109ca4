import type { ServerSurfaceCall } from "@grpc/grpc-js/build/src/server-call.js";

/** An AbortSignal that aborts when the client cancels the call or its deadline passes. */
export function callSignal(call: ServerSurfaceCall): AbortSignal {
  const controller = new AbortController();
  if (call.cancelled) controller.abort(new CallCancelledError());
  else call.once("cancelled", () => controller.abort(new CallCancelledError()));
  return controller.signal;
}

class CallCancelledError extends Error {
  override readonly name = "AbortError";
  constructor() {
    super("the call was cancelled by the client or its deadline passed");
  }
}
