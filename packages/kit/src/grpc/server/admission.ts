import type { ServerHttp2Stream } from "node:http2";

/**
 * Which of one connection's streams run and which wait. Node refuses a stream past
 * SETTINGS_MAX_CONCURRENT_STREAMS while a stream the client has just closed still counts (it is forgotten
 * on a later turn of the event loop), so with that setting as the bound, a client that cancelled a call
 * and sent a queued one in the same packet had the new call reset with ENHANCE_YOUR_CALM (grpc-js:
 * "RESOURCE_EXHAUSTED: Bandwidth exhausted"). The server advertises `running + waiting`, and here a stream
 * counts until it is closed, which Node marks as soon as it reads the frame that closes it. Streams past
 * `running` wait, unread: each holds its headers and at most one flow-control window (64 KiB) of its
 * request. A stream past those, from a client that ignores the advertised bound, is refused. (Node's
 * check still stands at `running + waiting`, and a client with that many streams in flight meets it;
 * serve() advertises at least 100, more than Selu or a burst in the tests has in flight: maxStreams.)
 */
export class StreamAdmission {
  readonly #maxRunning: number;
  readonly #maxWaiting: number;
  readonly #running = new Set<ServerHttp2Stream>();
  /** Waiting streams and how to start each, in arrival order. */
  readonly #waiting = new Map<ServerHttp2Stream, () => void>();

  constructor(running: number, waiting: number) {
    this.#maxRunning = running;
    this.#maxWaiting = waiting;
  }

  /** Runs `start` now, or once a running stream has closed; false if `stream` can't even wait. */
  admit(stream: ServerHttp2Stream, start: () => void): boolean {
    // Closed in the packet that brought this stream: their 'close' events have not run yet.
    if (this.#running.size >= this.#maxRunning) this.#forgetClosed();
    if (this.#running.size < this.#maxRunning && this.#waiting.size === 0) {
      this.#run(stream, start);
      return true;
    }
    if (this.#waiting.size >= this.#maxWaiting) return false;
    this.#waiting.set(stream, start);
    // A waiting stream the client cancels (or whose deadline passes) leaves the queue.
    stream.once("close", () => this.#waiting.delete(stream));
    return true;
  }

  /** Why a stream was refused, in words a client's user can act on. */
  refusal(): string {
    return `too many requests at once on this connection: ${this.#maxRunning} under way and ${this.#maxWaiting} waiting, the most this server holds; send it again once some have finished`;
  }

  #run(stream: ServerHttp2Stream, start: () => void): void {
    this.#running.add(stream);
    stream.once("close", () => {
      this.#running.delete(stream);
      this.#startWaiting();
    });
    start();
  }

  #forgetClosed(): void {
    for (const stream of this.#running) if (stream.closed) this.#running.delete(stream);
    for (const stream of this.#waiting.keys()) if (stream.closed) this.#waiting.delete(stream);
    this.#startWaiting();
  }

  #startWaiting(): void {
    for (const [stream, start] of this.#waiting) {
      if (this.#running.size >= this.#maxRunning) return;
      this.#waiting.delete(stream);
      // Closed, its 'close' not yet run (a connection cut closes every stream at once): nothing to start.
      if (!stream.closed) this.#run(stream, start);
    }
  }
}
