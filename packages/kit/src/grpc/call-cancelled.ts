import type { ServerSurfaceCall } from "@grpc/grpc-js/build/src/server-call.js";
import { CancelledError } from "../errors.js";
import type { CancelHook } from "../runtime/linked-signal.js";

/**
 * Links a runtime call to a gRPC call's cancellation (the client cancelled or its deadline passed), through
 * grpc-js's own 'cancelled' event. grpc-js emits it when every stream closes, answered or not, so the
 * runtime unsubscribes before the answer is sent.
 */
export function onCallCancelled(call: ServerSurfaceCall): CancelHook {
  return (abort) => {
    const onCancel = () => abort(new CancelledError());
    if (call.cancelled) {
      onCancel();
      return noop;
    }
    // `on`, not `once` (no wrapper per call): the runtime unsubscribes, and a second abort does nothing.
    call.on("cancelled", onCancel);
    return () => call.removeListener("cancelled", onCancel);
  };
}

function noop(): void {}
