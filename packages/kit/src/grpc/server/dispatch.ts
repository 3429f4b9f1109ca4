import type { ServerHttp2Stream } from "node:http2";
import type { Call } from "./call.js";
import { inflate } from "./inflate.js";
import { MessageReader, MessageTooLarge, type RawMessage } from "./message-reader.js";
import { Status } from "./status.js";
import type { MethodDefinition } from "./types.js";
import { errorMessage } from "../../errors.js";

// Handlers are checked against their method where they are added.
export type AnyHandler = (call: any, respond: any) => void;

export interface DispatchOptions {
  maxReceiveBytes: number;
  /** The request's grpc-encoding header, for compressed messages. */
  encoding: string | undefined;
  /** Told about a handler that threw (its call answers INTERNAL). */
  onHandlerError(path: string, error: unknown): void;
}

/**
 * Reads a call's request messages off its stream and runs its handler: at once for streaming requests
 * (each message handed over as it arrives), after the client's end of sending for single-message ones
 * (exactly one message, as grpc-js required). Messages are decoded in order even when one must first be
 * decompressed (the stream is paused meanwhile).
 */
export function dispatch<Req, Res>(stream: ServerHttp2Stream, call: Call<Req, Res>, method: MethodDefinition<Req, Res>, handler: AnyHandler, options: DispatchOptions): void {
  const respond = call.respond.bind(call);
  const run = () => guard(call, options, () => handler(call, respond));
  let received = 0;
  const onRequest = method.requestStream
    ? (message: Req) => guard(call, options, () => call.deliver(message))
    : (message: Req) => {
        received += 1;
        if (received > 1) call.abort({ code: Status.UNIMPLEMENTED, details: `received a second request message for ${method.path}, which takes one` });
        else call.request = message;
      };
  const onEnd = method.requestStream
    ? () => guard(call, options, () => call.deliverEnd())
    : () => {
        if (received === 0) call.abort({ code: Status.UNIMPLEMENTED, details: `received no request message for ${method.path}, which takes one` });
        else run();
      };
  if (method.requestStream) run();

  const decode = (bytes: Buffer) => {
    let message: Req;
    try {
      message = method.requestDeserialize(bytes);
    } catch (err) {
      call.abort({ code: Status.INTERNAL, details: `cannot parse the request message: ${errorMessage(err)}` });
      return;
    }
    onRequest(message);
  };

  // Messages waiting behind one being decompressed; `null` is the end of the request.
  const waiting: (RawMessage | null)[] = [];
  let inflating = false;
  const pump = () => {
    while (!inflating && waiting.length > 0 && !call.finished) {
      const next = waiting.shift()!;
      if (next === null) onEnd();
      else if (!next.compressed) decode(next.bytes);
      else {
        inflating = true;
        stream.pause();
        inflate(next.bytes, options.encoding, options.maxReceiveBytes).then(
          (bytes) => {
            inflating = false;
            decode(bytes);
            stream.resume();
            pump();
          },
          (error) => call.abort(error),
        );
      }
    }
  };
  const take = (message: RawMessage) => {
    if (call.finished) return;
    if (!message.compressed && !inflating && waiting.length === 0) decode(message.bytes);
    else {
      waiting.push(message);
      pump();
    }
  };

  const reader = new MessageReader(options.maxReceiveBytes);
  const onData = (chunk: Buffer) => {
    if (call.finished) return;
    try {
      reader.push(chunk, take);
    } catch (err) {
      // Refused from the prefix: the rest of the message is never buffered.
      if (err instanceof MessageTooLarge) call.abort({ code: Status.RESOURCE_EXHAUSTED, details: err.message });
      else call.abort({ code: Status.INTERNAL, details: "cannot read the request" });
    }
  };
  stream.on("data", onData);
  stream.once("end", () => {
    if (call.finished) return;
    if (reader.midMessage) {
      call.abort({ code: Status.INTERNAL, details: "the request ended inside a message" });
      return;
    }
    waiting.push(null);
    pump();
  });
}

/** Runs a handler's listener; one that throws fails its call, not the process. */
function guard<Req, Res>(call: Call<Req, Res>, options: DispatchOptions, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    options.onHandlerError(call.path, err);
    call.abort({ code: Status.INTERNAL, details: "the server's handler failed" });
  }
}
