// The kit's gRPC server (src/grpc/server) against what a careless or hostile client sends: compressed
// messages and compression bombs, garbage instead of HTTP/2, oversized headers, handlers that throw.
// None may stop the server or make it hold more than its bounds.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect as tcpConnect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { deflateSync, gzipSync } from "node:zlib";
import { credentials } from "@grpc/grpc-js";
import { CAPABILITY_SERVICE_NAME, HealthRequest, HealthResponse } from "@selu-catalogue/proto";
import { HealthClient, HealthService } from "@selu-catalogue/proto/standard";
import { constants, type ClientHttp2Session } from "node:http2";
import { describe, expect, it } from "vitest";
import { GrpcServer, Status } from "../src/grpc/server/index.ts";
import { connect, frame, INVOKE_PATH, invokeBytes, invokeResult, open, rawCall, servedOverRawHttp2 } from "./fixtures/raw-call.ts";

const served = servedOverRawHttp2();

const echo = (text: string) => invokeBytes("echo", { text });
const stillServes = async () => expect(invokeResult((await rawCall(served.session, INVOKE_PATH, [frame(echo("alive"))])).messages[0])).toEqual({ text: "alive" });

describe("compressed messages", () => {
  it("reads gzip and deflate messages, as grpc-js did", async () => {
    const gzip = await rawCall(served.session, INVOKE_PATH, [frame(gzipSync(echo("gz")), true)], { "grpc-encoding": "gzip" });
    expect(invokeResult(gzip.messages[0])).toEqual({ text: "gz" });
    const deflate = await rawCall(served.session, INVOKE_PATH, [frame(deflateSync(echo("df")), true)], { "grpc-encoding": "deflate" });
    expect(invokeResult(deflate.messages[0])).toEqual({ text: "df" });
  });

  it("stops inflating a compression bomb at the receive bound (RESOURCE_EXHAUSTED)", async () => {
    // 256 MiB of zeros in about 250 KiB: inflated whole it would take 256 MiB.
    const bomb = gzipSync(Buffer.alloc(256 * 1024 * 1024), { level: 9 });
    const res = await rawCall(served.session, INVOKE_PATH, [frame(bomb, true)], { "grpc-encoding": "gzip" });
    expect(res).toMatchObject({ grpcStatus: 8, grpcMessage: expect.stringMatching(/^Received message larger than max once inflated \(over \d+ bytes, the largest request this server accepts\)$/) });
    await stillServes();
  });

  it("refuses an encoding it does not read (UNIMPLEMENTED), and a compressed message with no encoding named", async () => {
    const brotli = await rawCall(served.session, INVOKE_PATH, [frame(echo("br"), true)], { "grpc-encoding": "br" });
    expect(brotli).toMatchObject({ grpcStatus: 12, grpcMessage: expect.stringContaining('"br" is not supported') });
    const unnamed = await rawCall(served.session, INVOKE_PATH, [frame(gzipSync(echo("x")), true)]);
    expect(unnamed).toMatchObject({ grpcStatus: 13, grpcMessage: expect.stringContaining("names no grpc-encoding") });
  });

  it("answers a corrupt compressed message with INTERNAL", async () => {
    const res = await rawCall(served.session, INVOKE_PATH, [frame(Buffer.from("not gzip at all"), true)], { "grpc-encoding": "gzip" });
    expect(res).toMatchObject({ grpcStatus: 13, grpcMessage: expect.stringContaining("cannot decompress") });
  });
});

/** An HTTP/2 frame (RFC 9113 section 4.1). */
function h2Frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(9);
  header.writeUIntBE(payload.byteLength, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(streamId, 5);
  return Buffer.concat([header, payload]);
}

const u32 = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);

/** A gRPC request's header block in HPACK (RFC 7541): static entries and literals, nothing indexed. */
function requestHeaders(path: string): Buffer {
  const literal = (name: string, value: string) => Buffer.concat([Buffer.from([0, name.length]), Buffer.from(name), Buffer.from([value.length]), Buffer.from(value)]);
  // :method POST (3), :scheme http (6), :path by its static name (4), :authority by its static name (1).
  return Buffer.concat([
    Buffer.from([0x83, 0x86, 0x04, path.length]),
    Buffer.from(path),
    Buffer.from([0x01, 1]),
    Buffer.from("x"),
    literal("content-type", "application/grpc"),
    literal("te", "trailers"),
  ]);
}

/** The error codes of the GOAWAY frames in `bytes` (what a server sent on a connection). */
function goaways(bytes: Buffer): number[] {
  const codes: number[] = [];
  for (let at = 0; at + 9 <= bytes.byteLength; ) {
    const length = bytes.readUIntBE(at, 3);
    if (bytes[at + 3] === 7) codes.push(bytes.readUInt32BE(at + 9 + 4));
    at += 9 + length;
  }
  return codes;
}

/** Sends `bytes` on a bare TCP connection; resolves once the server has closed it. */
async function sendRaw(...bytes: (string | Buffer)[]): Promise<void> {
  const socket = tcpConnect(served.h.server.port, "127.0.0.1");
  socket.on("error", () => {});
  socket.resume();
  await new Promise((resolve) => socket.once("connect", resolve));
  for (const b of bytes) socket.write(b);
  await new Promise((resolve) => socket.once("close", resolve));
}

describe("hostile connections", () => {
  it("closes a connection that sends bytes that are not HTTP/2 at all, and goes on", async () => {
    await sendRaw(Buffer.alloc(4096, 0xab));
    await stillServes();
  });

  it("closes a connection that sends garbage frames after a valid preface, and goes on", async () => {
    await sendRaw("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", Buffer.alloc(4096, 0xff));
    await stillServes();
  });

  it("closes a connection that speaks HTTP/1.1, and goes on", async () => {
    await sendRaw(`POST ${INVOKE_PATH} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`);
    await stillServes();
  });

  it("advertises a 64 KiB header list bound, so a call with larger headers never starts, and goes on", async () => {
    const other = connect(`127.0.0.1:${served.h.server.port}`);
    await new Promise((resolve) => other.once("remoteSettings", resolve));
    expect(other.remoteSettings.maxHeaderListSize).toBe(64 * 1024);
    const res = await rawCall(other, INVOKE_PATH, [frame(echo("x"))], { "x-huge": "h".repeat(200_000) });
    expect(res).toMatchObject({ grpcStatus: undefined, rstCode: constants.NGHTTP2_REFUSED_STREAM });
    other.destroy();
    await stillServes();
  });
});

describe("clients that reset streams", () => {
  /** Invoke echo on `session`; the client resets the stream (CANCEL) as soon as the answer's message arrives. */
  const callThenReset = (session: ClientHttp2Session) =>
    new Promise<void>((resolve, reject) => {
      const stream = open(session, INVOKE_PATH);
      stream.once("data", () => stream.close(constants.NGHTTP2_CANCEL));
      stream.once("close", () =>
        stream.rstCode === constants.NGHTTP2_CANCEL || stream.rstCode === constants.NGHTTP2_NO_ERROR ? resolve() : reject(new Error(`stream closed with ${stream.rstCode}`)),
      );
      stream.end(frame(echo("x")));
    });

  it("keeps a connection whose client resets every stream once it has the answer, past nghttp2's default 1,000 resets", async () => {
    // Selu reads a download until its `done` chunk and drops the stream: a reset whenever the trailers are
    // not in yet. Node's guard against rapid reset allowed 1,000 resets and 33 a second more, then closed
    // the connection (GOAWAY INTERNAL_ERROR) and with it every call on it: the 1,400th letter of a bench failed.
    const session = connect(`127.0.0.1:${served.h.server.port}`);
    let goaway: number | undefined;
    session.on("goaway", (code) => (goaway = code));
    for (let i = 0; i < 1_500; i++) await callThenReset(session);
    expect(goaway).toBeUndefined();
    expect(invokeResult((await rawCall(session, INVOKE_PATH, [frame(echo("alive"))])).messages[0])).toEqual({ text: "alive" });
    session.destroy();
  });

  it.each([
    ["CANCEL", constants.NGHTTP2_CANCEL],
    ["NO_ERROR", constants.NGHTTP2_NO_ERROR],
  ])("still closes a connection that floods resets (HTTP/2 rapid reset, code %s) with ENHANCE_YOUR_CALM, and goes on", async (_, code) => {
    // Raw frames, as the attack sends them: a request's headers and its reset, 3,000 times in one write.
    // (A Node client drops a stream reset before its headers went out: the server would see nothing.)
    const socket = tcpConnect(served.h.server.port, "127.0.0.1");
    const received: Buffer[] = [];
    socket.on("data", (data: Buffer) => received.push(data));
    socket.on("error", () => {});
    await new Promise((resolve) => socket.once("connect", resolve));
    // (A reset before the answer counts whatever its code.)
    const pairs = Array.from({ length: 3_000 }, (_, i) => [h2Frame(1, 0x4, 2 * i + 1, requestHeaders(INVOKE_PATH)), h2Frame(3, 0, 2 * i + 1, u32(code))]);
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.write(Buffer.concat([Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), h2Frame(4, 0, 0, Buffer.alloc(0)), ...pairs.flat()]));
    await closed;
    expect(goaways(Buffer.concat(received))).toEqual([constants.NGHTTP2_ENHANCE_YOUR_CALM]);
    await stillServes();
  });
});

describe("handlers that throw", () => {
  it("answer their call with INTERNAL, report the error, and the server goes on", async () => {
    const errors: string[] = [];
    const server = new GrpcServer({
      maxReceiveBytes: 1024,
      maxSendBytes: 1024,
      maxConcurrentStreams: 10,
      maxWaitingStreams: 10,
      onHandlerError: (method, error) => errors.push(`${method}: ${(error as Error).message}`),
    });
    let calls = 0;
    server.addService(HealthService, {
      check: (_call, respond) => {
        if (++calls === 1) throw new Error("boom");
        respond(null, { status: 1 });
      },
      watch: () => {},
      list: (_call, respond) => respond(null, { statuses: {} }),
    });
    const port = await server.listen("127.0.0.1", 0);
    const client = new HealthClient(`127.0.0.1:${port}`, credentials.createInsecure());
    const check = () => new Promise<unknown>((resolve) => client.check({ service: "" }, (err, res) => resolve(err ?? res)));
    expect(await check()).toMatchObject({ code: Status.INTERNAL, details: "the server's handler failed" });
    expect(await check()).toEqual({ status: 1 });
    expect(errors).toEqual(["/grpc.health.v1.Health/Check: boom"]);
    client.close();
    await new Promise<void>((resolve) => server.tryShutdown(resolve));
  });
});

describe("an independent client: curl over HTTP/2 with prior knowledge", () => {
  it("calls Healthcheck and reads the answer and its trailers", async () => {
    const dir = await mkdtemp(join(tmpdir(), "kit-curl-"));
    try {
      await writeFile(join(dir, "request"), frame(HealthRequest.encode({}).finish()));
      const url = `http://127.0.0.1:${served.h.server.port}/${CAPABILITY_SERVICE_NAME}/Healthcheck`;
      const args = [
        "-s",
        "--http2-prior-knowledge",
        "-H",
        "content-type: application/grpc",
        "-H",
        "te: trailers",
        "--data-binary",
        `@${join(dir, "request")}`,
        "-D",
        join(dir, "headers"),
        "-o",
        join(dir, "body"),
        url,
      ];
      await promisify(execFile)("curl", args);
      const headers = await readFile(join(dir, "headers"), "utf8");
      expect(headers).toMatch(/^HTTP\/2 200/);
      expect(headers).toMatch(/grpc-status: 0/);
      const body = await readFile(join(dir, "body"));
      expect(body.readUInt32BE(1)).toBe(body.byteLength - 5);
      expect(HealthResponse.decode(body.subarray(5))).toEqual({ ready: true, message: "ready" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
