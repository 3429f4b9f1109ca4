import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { formatBytes } from "../format.js";

/**
 * MCP over stdio with a bound on each message: one JSON-RPC message per line, as the SDK's transport
 * reads it, but a line longer than `maxLineBytes` is skipped while it arrives (never buffered whole) and
 * answered with an error, instead of closing the session as the SDK's 10 MiB buffer bound does. A line
 * that is not a JSON-RPC message gets a parse error; either way the server goes on.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /**
   * The client closed stdin (its way to stop a stdio server). The session stays open to answer the calls
   * in flight (closing it would cancel them); the server closes it once they are done.
   */
  oninputend?: () => void;
  readonly #in: Readable;
  readonly #out: Writable;
  readonly #max: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #skipping = false;
  #closed = false;

  constructor(input: Readable, output: Writable, maxLineBytes: number) {
    this.#in = input;
    this.#out = output;
    this.#max = maxLineBytes;
  }

  async start(): Promise<void> {
    this.#in.on("data", this.#onData);
    this.#in.once("end", this.#onEnd);
    this.#in.once("close", this.#onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => (this.#out.write(`${JSON.stringify(message)}\n`) ? resolve() : this.#out.once("drain", resolve)));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#in.off("data", this.#onData);
    this.#in.off("end", this.#onEnd);
    this.#in.off("close", this.#onEnd);
    this.#in.pause();
    this.#pending = [];
    this.onclose?.();
  }

  #ended = false;
  readonly #onEnd = () => {
    if (this.#ended) return;
    this.#ended = true;
    this.oninputend?.();
  };

  readonly #onData = (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; start = nl + 1, nl = chunk.indexOf(10, start)) {
      this.#take(chunk.subarray(start, nl));
      const line = this.#skipping ? undefined : Buffer.concat(this.#pending, this.#pendingBytes);
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#skipping = false;
      if (line) this.#deliver(line);
    }
    if (start < chunk.length) this.#take(chunk.subarray(start));
  };

  /** Adds part of the current line, or drops the line once it passes the bound. */
  #take(part: Buffer): void {
    if (this.#skipping || part.length === 0) return;
    this.#pendingBytes += part.length;
    if (this.#pendingBytes <= this.#max) {
      this.#pending.push(part);
      return;
    }
    this.#pending = [];
    this.#skipping = true;
    this.#reply(ErrorCode.InvalidRequest, `message refused: over ${formatBytes(this.#max)}; pass large files by uri, or smaller`);
  }

  #deliver(line: Buffer): void {
    const text = line.toString("utf8").replace(/\r$/, "");
    if (text.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(text));
    } catch {
      this.#reply(ErrorCode.ParseError, "message refused: not a JSON-RPC message");
      return;
    }
    this.onmessage?.(message);
  }

  #reply(code: number, message: string): void {
    // The id is unknown without parsing what was refused; JSON-RPC 2.0 answers such errors with id null
    // (which the SDK's message type leaves out, hence the line is written here).
    if (!this.#closed) this.#out.write(`${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } })}\n`);
    this.onerror?.(new Error(message));
  }
}
