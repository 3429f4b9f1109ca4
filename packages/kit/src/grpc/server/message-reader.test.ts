import { describe, expect, it } from "vitest";
import { MessageReader, MessageTooLarge, type RawMessage } from "./message-reader.js";

const framed = (body: string, flag = 0) => {
  const bytes = Buffer.from(body);
  const out = Buffer.alloc(5 + bytes.byteLength);
  out[0] = flag;
  out.writeUInt32BE(bytes.byteLength, 1);
  bytes.copy(out, 5);
  return out;
};

function read(limit: number, chunks: Buffer[]): RawMessage[] {
  const reader = new MessageReader(limit);
  const out: RawMessage[] = [];
  for (const chunk of chunks) reader.push(chunk, (m) => out.push(m));
  return out;
}

describe("MessageReader", () => {
  it("reads a message fed one byte at a time, prefix included", () => {
    const bytes = framed("hello");
    expect(
      read(
        100,
        [...bytes].map((b) => Buffer.from([b])),
      ).map((m) => m.bytes.toString()),
    ).toEqual(["hello"]);
  });

  it("reads several messages, and empty ones, from one chunk", () => {
    const messages = read(100, [Buffer.concat([framed("a"), framed(""), framed("bc", 1)])]);
    expect(messages.map((m) => [m.bytes.toString(), m.compressed])).toEqual([
      ["a", false],
      ["", false],
      ["bc", true],
    ]);
  });

  it("reads messages that straddle chunk borders", () => {
    const all = Buffer.concat([framed("first"), framed("second")]);
    expect(read(100, [all.subarray(0, 7), all.subarray(7, 13), all.subarray(13)]).map((m) => m.bytes.toString())).toEqual(["first", "second"]);
  });

  it("copies a message out of the chunk it came in, so a kept message does not pin the chunk", () => {
    const chunk = framed("copy");
    const [message] = read(100, [chunk]);
    chunk.fill(0);
    expect(message!.bytes.toString()).toBe("copy");
  });

  it("refuses a declared length over the limit from the prefix alone", () => {
    const prefix = Buffer.from([0, 0, 0, 0, 0]);
    prefix.writeUInt32BE(101, 1);
    const reader = new MessageReader(100);
    expect(() => reader.push(prefix, () => {})).toThrow(MessageTooLarge);
    expect(() => new MessageReader(100).push(prefix, () => {})).toThrow("Received message larger than max (101 vs 100 bytes, the largest request this server accepts)");
  });

  it("takes a message of exactly the limit", () => {
    expect(read(4, [framed("four")]).length).toBe(1);
  });

  it("knows when it is inside a message", () => {
    const reader = new MessageReader(100);
    reader.push(framed("abc").subarray(0, 3), () => {});
    expect(reader.midMessage).toBe(true);
    reader.push(framed("abc").subarray(3), () => {});
    expect(reader.midMessage).toBe(false);
  });
});
