import { EventEmitter } from "node:events";
import type { ServerHttp2Stream } from "node:http2";
import { describe, expect, it } from "vitest";
import { StreamAdmission } from "./admission.js";

// What admission reads of a stream: its `closed` mark and its 'close' event, which Node sends on a later
// turn than the mark (test/grpc-admission.test.ts drives the server over real HTTP/2).
class Stream extends EventEmitter {
  closed = false;
  /** Marked closed, as when Node reads the client's RST_STREAM; 'close' not yet emitted. */
  reset(): void {
    this.closed = true;
  }
  close(): void {
    this.closed = true;
    this.emit("close");
  }
}

function admission(running: number, waiting: number) {
  const admit = new StreamAdmission(running, waiting);
  const started: string[] = [];
  const offer = (name: string) => {
    const stream = new Stream();
    const admitted = admit.admit(stream as unknown as ServerHttp2Stream, () => started.push(name));
    return { stream, admitted };
  };
  return { admit, started, offer };
}

describe("StreamAdmission", () => {
  it("runs up to `running` streams, queues `waiting` more in arrival order, and refuses one more in words", () => {
    const { admit, started, offer } = admission(2, 2);
    const [a, , c, d, e] = ["a", "b", "c", "d", "e"].map(offer);
    expect(started).toEqual(["a", "b"]);
    expect([c!.admitted, d!.admitted, e!.admitted]).toEqual([true, true, false]);
    expect(admit.refusal()).toBe("too many requests at once on this connection: 2 under way and 2 waiting, the most this server holds; send it again once some have finished");
    a!.stream.close();
    expect(started).toEqual(["a", "b", "c"]);
  });

  it("counts a stream closed in the packet that brings a new one as free, before its 'close' event", () => {
    const { started, offer } = admission(1, 0);
    const a = offer("a");
    a.stream.reset();
    expect(offer("b").admitted).toBe(true);
    expect(started).toEqual(["a", "b"]);
    // The late 'close' of the first frees nothing twice.
    a.stream.emit("close");
    expect(offer("c").admitted).toBe(false);
  });

  it("never starts a waiting stream already closed, when a slot frees (a connection cut closes all at once)", () => {
    const { started, offer } = admission(1, 2);
    const a = offer("a");
    const b = offer("b");
    offer("c");
    b.stream.reset();
    a.stream.close();
    expect(started).toEqual(["a", "c"]);
  });

  it("drops a waiting stream that closes, and keeps its place for the next", () => {
    const { started, offer } = admission(1, 1);
    const a = offer("a");
    const b = offer("b");
    b.stream.close();
    expect(offer("c").admitted).toBe(true);
    a.stream.close();
    expect(started).toEqual(["a", "c"]);
  });
});
