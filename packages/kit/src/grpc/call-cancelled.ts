import { CancelledError } from "../errors.js";
import type { CancelHook } from "../runtime/linked-signal.js";
import type { ServerCall } from "./server/index.js";

/**
 * Links a runtime call to a gRPC call's cancellation: the client cancelled or went away, or its deadline
 * passed. The call fires it only when it ends without the handler's answer.
 */
export function onCallCancelled(call: ServerCall): CancelHook {
  return (abort) => call.onCancel(() => abort(new CancelledError()));
}
