/** One length-prefixed message as it came off the wire: its bytes and whether they are compressed. */
export interface RawMessage {
  bytes: Buffer;
  compressed: boolean;
}

/** A message whose declared length is over the receive bound: refused from its 5-byte prefix alone. */
export class MessageTooLarge extends Error {
  constructor(
    readonly declared: number,
    readonly limit: number,
  ) {
    // grpc-js's words first: clients and tests match them.
    super(`Received message larger than max (${declared} vs ${limit} bytes, the largest request this server accepts)`);
  }
}

/**
 * Splits a request body into gRPC messages (1 byte compressed flag, 4 bytes big-endian length, the bytes),
 * whatever the DATA frames' borders: a message split across frames, or several in one. The length is
 * checked against `limit` as soon as the prefix is read, so an oversized message is refused before its
 * bytes are buffered. Every message is copied out of the chunks it came in: Node hands a stream's DATA
 * as views into the buffer of a whole socket read (64 KiB), which a kept view of a small request (an
 * Invoke's arguments, for the call's length) would pin.
 */
export class MessageReader {
  readonly #limit: number;
  readonly #prefix = Buffer.alloc(5);
  #prefixFilled = 0;
  // Length and flag of the message being read, once its prefix is complete.
  #length = -1;
  #compressed = false;
  #parts: Buffer[] = [];
  #partsBytes = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Whether a message is partly read (a body that ends here is truncated). */
  get midMessage(): boolean {
    return this.#prefixFilled > 0;
  }

  /**
   * Reads one chunk of the body; calls `onMessage` for each message it completes.
   * @throws MessageTooLarge when a prefix declares more than the limit (the reader is unusable after).
   */
  push(chunk: Buffer, onMessage: (message: RawMessage) => void): void {
    let offset = 0;
    while (offset < chunk.byteLength) {
      if (this.#length < 0) {
        const take = Math.min(5 - this.#prefixFilled, chunk.byteLength - offset);
        chunk.copy(this.#prefix, this.#prefixFilled, offset, offset + take);
        this.#prefixFilled += take;
        offset += take;
        if (this.#prefixFilled < 5) return;
        const length = this.#prefix.readUInt32BE(1);
        if (length > this.#limit) throw new MessageTooLarge(length, this.#limit);
        this.#length = length;
        this.#compressed = this.#prefix[0] !== 0;
      }
      const take = Math.min(this.#length - this.#partsBytes, chunk.byteLength - offset);
      if (take > 0) {
        this.#parts.push(chunk.subarray(offset, offset + take));
        this.#partsBytes += take;
        offset += take;
      }
      // (A zero-length message is complete as soon as its prefix is.)
      if (this.#partsBytes === this.#length) onMessage(this.#take());
    }
  }

  #take(): RawMessage {
    const message = { bytes: Buffer.concat(this.#parts, this.#partsBytes), compressed: this.#compressed };
    this.#parts = [];
    this.#partsBytes = 0;
    this.#length = -1;
    this.#prefixFilled = 0;
    return message;
  }
}
