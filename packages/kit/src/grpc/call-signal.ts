import type { ServerSurfaceCall } from "@grpc/grpc-js/build/src/server-call.js";

/**
 * An AbortSignal that aborts when the client cancels the call or its deadline passes. It is made when
 * first read: a tool that answers synchronously never needs one, and that is most calls of simple tools.
 */
export class CallSignal {
  readonly #call: ServerSurfaceCall;
  #controller: AbortController | undefined;
  #onCancel: (() => void) | undefined;

  constructor(call: ServerSurfaceCall) {
    this.#call = call;
  }

  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = (this.#controller = new AbortController());
    const onCancel = () => controller.abort(new CallCancelledError());
    if (this.#call.cancelled) onCancel();
    else this.#call.once("cancelled", (this.#onCancel = onCancel));
    return controller.signal;
  }

  /** Call before answering: grpc-js emits 'cancelled' when every stream closes, answered or not. */
  dispose(): void {
    if (this.#onCancel) this.#call.removeListener("cancelled", this.#onCancel);
  }
}

class CallCancelledError extends Error {
  override readonly name = "AbortError";
  constructor() {
    super("the call was cancelled by the client or its deadline passed");
  }
}
