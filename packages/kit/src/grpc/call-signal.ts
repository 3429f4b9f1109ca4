import type { ServerSurfaceCall } from "@grpc/grpc-js/build/src/server-call.js";
import { CancelledError } from "../errors.js";

/** An AbortSignal for one gRPC call: it aborts when the client cancels or its deadline passes. */
export interface CallSignal {
  readonly signal: AbortSignal;
  /** Call before answering: grpc-js emits 'cancelled' when every stream closes, answered or not. */
  dispose(): void;
}

export function callSignal(call: ServerSurfaceCall): CallSignal {
  const controller = new AbortController();
  const onCancel = () => controller.abort(new CancelledError());
  if (call.cancelled) onCancel();
  else call.once("cancelled", onCancel);
  return { signal: controller.signal, dispose: () => call.removeListener("cancelled", onCancel) };
}
