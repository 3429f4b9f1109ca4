import type { StatusError } from "./status.js";

/**
 * One method of a service as ts-proto generates it (`outputServices=grpc-js`): the objects of
 * @selu-catalogue/proto are served as they are.
 */
export interface MethodDefinition<Req, Res> {
  readonly path: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
  requestDeserialize(bytes: Buffer): Req;
  responseSerialize(value: Res): Buffer;
}

// A service's methods each have their own message types.
export type ServiceDefinition = { readonly [name: string]: MethodDefinition<any, any> };

/** What every call offers its handler. */
export interface ServerCall {
  /**
   * True once the call ended without the handler's answer: the client cancelled or went away, its
   * deadline passed, or its request broke the protocol or the bounds (it then has its status already).
   */
  readonly cancelled: boolean;
  /** When the client's deadline passes (`Date.now()`'s clock), if it sent one (grpc-timeout). */
  readonly deadlineAt: number | undefined;
  /** Calls `listener` once on cancellation (at once if the call is cancelled); returns how to unsubscribe. */
  onCancel(listener: () => void): () => void;
}

/** A call with one request message (unary and server-streaming). */
export interface SingleRequestCall<Req> extends ServerCall {
  readonly request: Req;
}

/** The request side of a client- or bidi-streaming call. */
export interface RequestStream<Req> extends ServerCall {
  /** Takes each request message in order, then the client's end of sending. Call once, at once. */
  receive(onMessage: (message: Req) => void, onEnd: () => void): void;
  /** Drops whatever the client still sends (the call is answered; nothing more is read). */
  stopReceiving(): void;
}

/** The response side of a server- or bidi-streaming call. */
export interface ResponseStream<Res> {
  /**
   * Sends one message. `sent` is called once its bytes have left the process (the client's flow control
   * window took them): a writer that waits for it holds one message at a time. Never called if the call
   * ends first; its cancellation says so.
   */
  write(message: Res, sent?: () => void): void;
  /** Ends the call with status OK after the messages written. */
  end(): void;
  /** Ends the call with an error status. */
  fail(error: StatusError): void;
  /** Drops the stream at once (RST_STREAM), unsent messages included: for a client that stopped reading. */
  reset(): void;
}

/** A unary (or client-streaming) call's one answer: an error status, or the response message. */
export type Respond<Res> = (error: StatusError | null, response?: Res) => void;

export type UnaryHandler<Req, Res> = (call: SingleRequestCall<Req>, respond: Respond<Res>) => void;
export type ServerStreamingHandler<Req, Res> = (call: SingleRequestCall<Req> & ResponseStream<Res>) => void;
export type ClientStreamingHandler<Req, Res> = (call: RequestStream<Req>, respond: Respond<Res>) => void;
export type BidiStreamingHandler<Req, Res> = (call: RequestStream<Req> & ResponseStream<Res>) => void;

/** The handler a method takes, from its definition's streaming flags. */
export type HandlerFor<M> =
  M extends MethodDefinition<infer Req, infer Res>
    ? M["requestStream"] extends true
      ? M["responseStream"] extends true
        ? BidiStreamingHandler<Req, Res>
        : ClientStreamingHandler<Req, Res>
      : M["responseStream"] extends true
        ? ServerStreamingHandler<Req, Res>
        : UnaryHandler<Req, Res>
    : never;

/** A handler for every method of a service. */
export type Implementation<D extends ServiceDefinition> = { [K in keyof D]: HandlerFor<D[K]> };
