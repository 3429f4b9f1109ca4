import { constants, type ServerHttp2Stream } from "node:http2";
import { encodeGrpcMessage, Status, type StatusError } from "./status.js";
import type { MethodDefinition, RequestStream, ResponseStream, SingleRequestCall } from "./types.js";
import { errorMessage } from "../../errors.js";

const RESPONSE_HEADERS = { ":status": 200, "content-type": "application/grpc" };
/**
 * No Date header (Node adds one unless told): gRPC has no use for it, and Node makes it once a second with
 * toUTCString, whose first call reads ICU's time zone data into the process (~0.9 MiB).
 */
export const NO_DATE = { sendDate: false };
// Below this a message and its 5-byte prefix go out as one buffer (one copy of a small message is
// cheaper than a second write); above it, as two writes with no copy.
const COPY_BELOW = 16 * 1024;
const STOP_AFTER_MS = 1_000;
/** PINGs sent to learn that a client has read an answer (the first usually goes before the answer's last frame). */
const MAX_STOP_PINGS = 4;

/**
 * Answers a stream that failed before any message with the status alone (a trailers-only response).
 */
export function answerTrailersOnly(stream: ServerHttp2Stream, error: StatusError): void {
  if (stream.destroyed || stream.closed || stream.headersSent) return;
  stream.respond({ ...RESPONSE_HEADERS, ...statusTrailers(error) }, { endStream: true, ...NO_DATE });
  stopInbound(stream);
}

/** One gRPC call on its HTTP/2 stream: the answer side, cancellation and deadline. */
export class Call<Req, Res> implements SingleRequestCall<Req>, RequestStream<Req>, ResponseStream<Res> {
  request!: Req;
  cancelled = false;
  deadlineAt: number | undefined;
  readonly #stream: ServerHttp2Stream;
  readonly #method: MethodDefinition<Req, Res>;
  readonly #maxSendBytes: number;
  #headersSent = false;
  /** Set once a status went out or the stream is gone: nothing more is sent. */
  #finished = false;
  #cancelListeners: (() => void)[] | undefined;
  #onMessage: ((message: Req) => void) | undefined;
  #onEnd: (() => void) | undefined;
  #deadline: NodeJS.Timeout | undefined;
  /** Set when this server reset the stream itself (a client that stopped reading). */
  #resetHere = false;
  /** Set once the status was handed to the open stream: the answer is complete on our side. */
  #answered = false;

  /**
   * `onResetUnanswered` is told when the client reset the stream before the answer was complete (what
   * rapid reset does; see ResetBudget).
   */
  constructor(stream: ServerHttp2Stream, method: MethodDefinition<Req, Res>, maxSendBytes: number, onResetUnanswered?: () => void) {
    this.#stream = stream;
    this.#method = method;
    this.#maxSendBytes = maxSendBytes;
    // Closed before a status went out: the client cancelled (RST_STREAM), or the connection is gone.
    stream.once("close", () => {
      if (!this.#finished) {
        this.#finished = true;
        this.#cancel();
      }
      // Before our END_STREAM a stream only closes by a reset (any code, NO_ERROR too) or with its connection.
      if (!this.#answered && !this.#resetHere) onResetUnanswered?.();
    });
  }

  get finished(): boolean {
    return this.#finished;
  }

  get path(): string {
    return this.#method.path;
  }

  /** DEADLINE_EXCEEDED and cancellation when `ms` pass (the client's grpc-timeout). */
  setDeadline(ms: number): void {
    this.deadlineAt = Date.now() + ms;
    this.#deadline = setTimeout(() => this.abort({ code: Status.DEADLINE_EXCEEDED, details: "Deadline exceeded" }), ms);
    // The call's stream keeps the process alive while it matters; a timer must not after shutdown.
    this.#deadline.unref();
  }

  onCancel(listener: () => void): () => void {
    if (this.cancelled) {
      listener();
      return noop;
    }
    (this.#cancelListeners ??= []).push(listener);
    return () => {
      const at = this.#cancelListeners?.indexOf(listener) ?? -1;
      if (at >= 0) this.#cancelListeners!.splice(at, 1);
    };
  }

  receive(onMessage: (message: Req) => void, onEnd: () => void): void {
    this.#onMessage = onMessage;
    this.#onEnd = onEnd;
  }

  stopReceiving(): void {
    this.#onMessage = undefined;
    this.#onEnd = undefined;
  }

  /** A request message for the handler (streaming requests). */
  deliver(message: Req): void {
    this.#onMessage?.(message);
  }

  /** The client's end of sending, for the handler (streaming requests). */
  deliverEnd(): void {
    this.#onEnd?.();
  }

  write(message: Res, sent?: () => void): void {
    if (this.#finished) return;
    let bytes: Buffer;
    try {
      bytes = this.#method.responseSerialize(message);
    } catch (err) {
      this.abort({ code: Status.INTERNAL, details: `cannot serialize the response: ${errorMessage(err)}` });
      return;
    }
    if (bytes.byteLength > this.#maxSendBytes) {
      this.abort({ code: Status.RESOURCE_EXHAUSTED, details: `the response message is ${bytes.byteLength} bytes, over the ${this.#maxSendBytes} bytes this server sends` });
      return;
    }
    const stream = this.#stream;
    if (!this.#headersSent) {
      this.#headersSent = true;
      stream.respond(RESPONSE_HEADERS, { waitForTrailers: true, ...NO_DATE });
    }
    const done = sent && ((err?: Error | null) => err || sent());
    if (bytes.byteLength < COPY_BELOW) {
      const framed = Buffer.allocUnsafe(5 + bytes.byteLength);
      framed[0] = 0;
      framed.writeUInt32BE(bytes.byteLength, 1);
      bytes.copy(framed, 5);
      stream.write(framed, done);
    } else {
      const prefix = Buffer.allocUnsafe(5);
      prefix[0] = 0;
      prefix.writeUInt32BE(bytes.byteLength, 1);
      stream.cork();
      stream.write(prefix);
      stream.write(bytes, done);
      stream.uncork();
    }
  }

  end(): void {
    this.#sendStatus({ code: Status.OK, details: "" });
  }

  fail(error: StatusError): void {
    this.#sendStatus(error);
  }

  /** The answer of a unary or client-streaming call. */
  respond(error: StatusError | null, response?: Res): void {
    if (error) return this.#sendStatus(error);
    this.write(response as Res);
    this.end();
  }

  reset(): void {
    if (this.#stream.destroyed) return;
    this.#resetHere = true;
    this.#stream.close(constants.NGHTTP2_CANCEL);
  }

  /** Ends the call with `error` not of the handler's making (bounds, protocol, deadline): it is cancelled. */
  abort(error: StatusError): void {
    if (this.#finished) return;
    this.#sendStatus(error);
    this.#cancel();
  }

  #sendStatus(error: StatusError): void {
    if (this.#finished) return;
    this.#finished = true;
    clearTimeout(this.#deadline);
    const stream = this.#stream;
    if (stream.destroyed || stream.closed) return;
    this.#answered = true;
    if (!this.#headersSent) return answerTrailersOnly(stream, error);
    stream.once("wantTrailers", () => {
      stream.sendTrailers(statusTrailers(error));
      stopInbound(stream);
    });
    stream.end();
  }

  #cancel(): void {
    clearTimeout(this.#deadline);
    this.stopReceiving();
    if (this.cancelled) return;
    this.cancelled = true;
    const listeners = this.#cancelListeners;
    this.#cancelListeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }
}

function statusTrailers(error: StatusError): Record<string, string> {
  return error.details ? { "grpc-status": String(error.code), "grpc-message": encodeGrpcMessage(error.details) } : { "grpc-status": String(error.code) };
}

/**
 * What a client still sends after the answer is dropped unread, and once the client has the whole answer
 * it is told to stop (RST_STREAM NO_ERROR, RFC 9113 section 8.1). Not sooner: a grpc-js client that sees
 * the reset before it has taken the trailers reports INTERNAL instead of the status. Not later either: a
 * client that goes on sending (grpc-js sends every message it was given, up to 16 MiB) and then ends
 * its request frees a stream that Node counts until its next turn of the event loop, so a call queued
 * behind it and sent in the same packet was reset with ENHANCE_YOUR_CALM when all the streams advertised
 * were in use. A client that answers no PING is stopped a second after the answer.
 */
export function stopInbound(stream: ServerHttp2Stream): void {
  stream.removeAllListeners("data");
  stream.resume();
  if (stream.readableEnded) return;
  const stop = () => {
    clearTimeout(timer);
    if (!stream.closed && !stream.destroyed) stream.close(constants.NGHTTP2_NO_ERROR);
  };
  const timer = setTimeout(stop, STOP_AFTER_MS).unref();
  stream.once("close", () => clearTimeout(timer));
  stream.once("end", () => clearTimeout(timer));
  whenAnswerRead(stream, stop, MAX_STOP_PINGS);
}

/**
 * Calls `taken` once the client has read our end of `stream`: the PING's acknowledgement comes back after
 * the client read every frame sent before the PING, so a PING sent once our end of the stream was on its
 * way proves it arrived. (One sent earlier may overtake the answer: nghttp2 sends PINGs ahead of DATA.)
 */
function whenAnswerRead(stream: ServerHttp2Stream, taken: () => void, pingsLeft: number): void {
  const session = stream.session;
  if (!session || session.destroyed || stream.closed || pingsLeft === 0) return;
  const answerGone = stream.state.localClose === 1;
  const onAck = (error: Error | null) => {
    if (error || stream.closed) return;
    if (answerGone) taken();
    else whenAnswerRead(stream, taken, pingsLeft - 1);
  };
  // False (too many PINGs unacknowledged) or thrown (the session went): the timer stops the stream instead.
  try {
    session.ping(onAck);
  } catch {}
}

function noop(): void {}
