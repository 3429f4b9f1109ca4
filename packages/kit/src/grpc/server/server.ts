import http2, { type Http2Server, type Http2Session, type IncomingHttpHeaders, type ServerHttp2Stream } from "node:http2";
import type { AddressInfo } from "node:net";
import { StreamAdmission } from "./admission.js";
import { answerTrailersOnly, Call, NO_DATE, stopInbound } from "./call.js";
import { dispatch, type AnyHandler } from "./dispatch.js";
import { Status } from "./status.js";
import { ResetBudget } from "./reset-budget.js";
import { parseGrpcTimeout } from "./timeout.js";
import type { Implementation, MethodDefinition, ServiceDefinition } from "./types.js";

export interface GrpcServerOptions {
  /** The largest request message taken, in bytes; a larger one is refused from its length prefix. */
  maxReceiveBytes: number;
  /** The largest response message sent, in bytes. */
  maxSendBytes: number;
  /** Streams one connection runs at once (calls, transfers, health checks). */
  maxConcurrentStreams: number;
  /** Streams past those that wait, unread, for one to close; one more is refused (RESOURCE_EXHAUSTED). */
  maxWaitingStreams: number;
  /** Told about a handler that threw (a bug: its call answers INTERNAL, the server goes on). */
  onHandlerError?(method: string, error: unknown): void;
  /** Told about a connection that failed, or an accept error (the server goes on). */
  onConnectionError?(error: unknown): void;
}

const MAX_HEADER_LIST_BYTES = 64 * 1024;
const NO_LIMIT = 2 ** 32 - 1;

interface Route {
  // Each route has its own message types.
  method: MethodDefinition<any, any>;
  handler: AnyHandler;
}

/**
 * A gRPC server over node:http2 (cleartext, prior knowledge) for ts-proto service definitions: unary and
 * streaming methods, status in trailers, deadlines, cancellation, message bounds enforced while reading,
 * graceful and forced shutdown. Only what the kit serves; see PROTOCOL-HTTP2.md for the wire format.
 */
export class GrpcServer {
  readonly #routes = new Map<string, Route>();
  readonly #sessions = new Set<Http2Session>();
  readonly #server: Http2Server;
  readonly #options: GrpcServerOptions;
  #onDrained: (() => void) | undefined;

  constructor(options: GrpcServerOptions) {
    this.#options = options;
    const advertised = options.maxConcurrentStreams + options.maxWaitingStreams;
    this.#server = http2.createServer({
      // The header list bound is advertised to clients and enforced on what arrives (a larger list
      // resets its stream); gRPC's own headers and Selu's metadata are a few hundred bytes. The streams
      // advertised are those that run and those that wait (StreamAdmission decides which is which).
      settings: { maxConcurrentStreams: advertised, maxHeaderListSize: MAX_HEADER_LIST_BYTES },
      // What a session may hold is bounded by the streams above and by our own read and write bounds;
      // Node's own cap (10 MB by default) refuses new streams under load, as grpc-js found.
      maxSessionMemory: Number.MAX_SAFE_INTEGER,
      // One PING at a time for each stream answered before its request ended (stopInbound in call.ts).
      maxOutstandingPings: advertised,
      // Resets are counted by ResetBudget instead, which tells a reset after the answer from one before it.
      streamResetBurst: NO_LIMIT,
      streamResetRate: NO_LIMIT,
    });
    this.#server.on("session", (session) => this.#track(session));
    // A broken or hostile connection ends its own calls ('close' on each), never the process: Node
    // reports every session's error here.
    this.#server.on("sessionError", (error) => this.#options.onConnectionError?.(error));
  }

  /** Serves `definition`'s methods with `implementation`'s handlers. */
  addService<D extends ServiceDefinition>(definition: D, implementation: Implementation<D>): void {
    for (const [name, method] of Object.entries(definition)) {
      const handler = (implementation as Record<string, AnyHandler | undefined>)[name];
      if (handler) this.#routes.set(method.path, { method, handler });
    }
  }

  /** Listens on `host:port` (0 for any free port); resolves with the port bound. */
  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(port, host, () => {
        this.#server.off("error", reject);
        // Once listening, an error (EMFILE on accept, say) is told, never thrown: the server goes on.
        this.#server.on("error", (error) => this.#options.onConnectionError?.(error));
        resolve((this.#server.address() as AddressInfo).port);
      });
    });
  }

  /**
   * Stops accepting connections, tells every client to open no more streams (GOAWAY), and calls `done`
   * once the calls in flight have ended and their connections closed.
   */
  tryShutdown(done: () => void): void {
    this.#server.close();
    this.#onDrained = done;
    for (const session of this.#sessions) if (!session.closed) session.close();
    this.#checkDrained();
  }

  /** Cuts every connection now: their calls are cancelled. */
  forceShutdown(): void {
    this.#server.close();
    for (const session of this.#sessions) session.destroy();
  }

  #track(session: Http2Session): void {
    const admission = new StreamAdmission(this.#options.maxConcurrentStreams, this.#options.maxWaitingStreams);
    const resets = new ResetBudget();
    const onResetUnanswered = () => {
      // One GOAWAY with the code (goaway() then destroy() sent a second one, NO_ERROR, with a higher
      // last stream id, which RFC 9113 section 6.8 forbids); the session error it raises is logged.
      if (resets.take() || session.destroyed) return;
      session.destroy(new Error("the client reset more streams before their answers than a connection may (HTTP/2 rapid reset)"), http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
    };
    this.#sessions.add(session);
    session.on("stream", (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => this.#onStream(stream, headers, admission, onResetUnanswered));
    session.once("close", () => {
      this.#sessions.delete(session);
      this.#checkDrained();
    });
    // A client that connects while a graceful shutdown is under way gets GOAWAY at once.
    if (this.#onDrained) session.close();
  }

  #checkDrained(): void {
    if (!this.#onDrained || this.#sessions.size > 0) return;
    const done = this.#onDrained;
    this.#onDrained = noop;
    done();
  }

  #onStream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, admission: StreamAdmission, onResetUnanswered: () => void): void {
    // A reset or a lost connection shows as the stream's 'close', which the call turns into cancellation.
    stream.on("error", noop);
    const contentType = headers["content-type"];
    if (headers[":method"] !== "POST" || typeof contentType !== "string" || !contentType.startsWith("application/grpc")) {
      // Not a gRPC request: an HTTP status, as grpc-js answered (PROTOCOL-HTTP2.md asks for 415).
      const status = headers[":method"] !== "POST" ? http2.constants.HTTP_STATUS_METHOD_NOT_ALLOWED : http2.constants.HTTP_STATUS_UNSUPPORTED_MEDIA_TYPE;
      stream.respond({ ":status": status }, { endStream: true, ...NO_DATE });
      stopInbound(stream);
      return;
    }
    const path = headers[":path"] ?? "";
    const route = this.#routes.get(path);
    if (!route) {
      answerTrailersOnly(stream, { code: Status.UNIMPLEMENTED, details: `the server has no method ${path}` });
      return;
    }
    const call = new Call(stream, route.method, this.#options.maxSendBytes, onResetUnanswered);
    const timeout = headers["grpc-timeout"];
    if (typeof timeout === "string") {
      const ms = parseGrpcTimeout(timeout);
      if (ms === undefined) {
        call.abort({ code: Status.INTERNAL, details: `malformed grpc-timeout ${JSON.stringify(timeout.slice(0, 20))}` });
        return;
      }
      call.setDeadline(ms);
    }
    const encoding = headers["grpc-encoding"];
    // The deadline runs from arrival, waiting included; a call that ended while waiting is not started.
    const start = () => {
      if (call.finished) return;
      dispatch(stream, call, route.method, route.handler, {
        maxReceiveBytes: this.#options.maxReceiveBytes,
        encoding: typeof encoding === "string" ? encoding : undefined,
        onHandlerError: (method, error) => this.#options.onHandlerError?.(method, error),
      });
    };
    if (!admission.admit(stream, start)) call.abort({ code: Status.RESOURCE_EXHAUSTED, details: admission.refusal() });
  }
}

function noop(): void {}
