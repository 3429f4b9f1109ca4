// The kit's gRPC server (src/grpc/server) on the wire, driven by a bare HTTP/2 client: framing, the HTTP
// answers to what is not gRPC, bounds checked from the length prefix, deadlines and cancellation.
import { constants } from "node:http2";
import { setTimeout as sleep } from "node:timers/promises";
import { CAPABILITY_SERVICE_NAME, UploadInputArtifactChunk, UploadInputArtifactResponse } from "@selu-catalogue/proto";
import { HealthCheckRequest, reflectionV1 } from "@selu-catalogue/proto/standard";
import { describe, expect, it } from "vitest";
import { observed } from "./fixtures/capability.ts";
import { answer, connect, frame, INVOKE_PATH, invokeBytes, invokeResult, open, rawCall, send, servedOverRawHttp2 } from "./fixtures/raw-call.ts";

const served = servedOverRawHttp2();

async function until(condition: () => boolean): Promise<void> {
  for (const started = Date.now(); !condition(); await sleep(10)) {
    if (Date.now() - started > 5_000) throw new Error("condition not met within 5 s");
  }
}

describe("framing", () => {
  it("reads a message split across many DATA frames, its length prefix included", async () => {
    const bytes = frame(invokeBytes("echo", { text: "in pieces" }));
    const res = await rawCall(
      served.session,
      INVOKE_PATH,
      [...bytes].map((b) => Buffer.from([b])),
    );
    expect(res.grpcStatus).toBe(0);
    expect(invokeResult(res.messages[0])).toEqual({ text: "in pieces" });
  });

  it("reads several messages from one DATA frame (client streaming)", async () => {
    const first = UploadInputArtifactChunk.encode({ filename: "two.bin", mimeType: "application/octet-stream", data: Buffer.alloc(1000, 1) }).finish();
    const second = UploadInputArtifactChunk.encode({ filename: "", mimeType: "", data: Buffer.alloc(500, 2) }).finish();
    const res = await rawCall(served.session, `/${CAPABILITY_SERVICE_NAME}/UploadInputArtifact`, [Buffer.concat([frame(first), frame(second)])]);
    expect(res.grpcStatus).toBe(0);
    expect(UploadInputArtifactResponse.decode(res.messages[0]!)).toMatchObject({ sizeBytes: 1500, error: "" });
  });

  it("answers each of several bidi requests sent in one DATA frame, in order", async () => {
    const ask = (host: string) => frame(reflectionV1.ServerReflectionRequest.encode({ host, listServices: "" }).finish());
    const res = await rawCall(served.session, "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", [Buffer.concat([ask("a"), ask("b")])]);
    expect(res.grpcStatus).toBe(0);
    expect(res.messages.map((m) => reflectionV1.ServerReflectionResponse.decode(m).validHost)).toEqual(["a", "b"]);
  });

  it("refuses a unary call with no request message, or with two", async () => {
    const none = await rawCall(served.session, INVOKE_PATH, []);
    expect(none).toMatchObject({ grpcStatus: 12, grpcMessage: expect.stringContaining("no request message") });
    const message = frame(invokeBytes("echo", { text: "x" }));
    const two = await rawCall(served.session, INVOKE_PATH, [Buffer.concat([message, message])]);
    expect(two).toMatchObject({ grpcStatus: 12, grpcMessage: expect.stringContaining("second request message") });
  });

  it("refuses a request that ends inside a message", async () => {
    const res = await rawCall(served.session, INVOKE_PATH, [frame(invokeBytes("echo", { text: "cut" })).subarray(0, 12)]);
    expect(res).toMatchObject({ grpcStatus: 13, grpcMessage: "the request ended inside a message" });
  });

  it("answers a malformed protobuf message with INTERNAL and keeps serving", async () => {
    const res = await rawCall(served.session, INVOKE_PATH, [frame(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff]))]);
    expect(res).toMatchObject({ grpcStatus: 13, grpcMessage: expect.stringContaining("cannot parse the request message") });
    const next = await rawCall(served.session, INVOKE_PATH, [frame(invokeBytes("echo", { text: "fine" }))]);
    expect(invokeResult(next.messages[0])).toEqual({ text: "fine" });
  });
});

describe("answers", () => {
  it("answers with :status 200, content-type application/grpc, and the status in trailers", async () => {
    const res = await rawCall(served.session, INVOKE_PATH, [frame(invokeBytes("echo", { text: "hi" }))]);
    expect(res.headers[":status"]).toBe(200);
    expect(res.headers["content-type"]).toBe("application/grpc");
    expect(res.trailers).toMatchObject({ "grpc-status": "0" });
  });

  it("sends no Date header, which gRPC has no use for, on answers, trailers-only answers and HTTP refusals", async () => {
    const answered = await rawCall(served.session, INVOKE_PATH, [frame(invokeBytes("echo", { text: "hi" }))]);
    const unknown = await rawCall(served.session, `/${CAPABILITY_SERVICE_NAME}/Nope`, [frame(Buffer.alloc(0))]);
    const refused = await rawCall(served.session, INVOKE_PATH, [Buffer.from("{}")], { "content-type": "application/json" });
    for (const res of [answered, unknown, refused]) expect(res.headers).not.toHaveProperty("date");
  });

  it("answers an unknown method with UNIMPLEMENTED, trailers only", async () => {
    const res = await rawCall(served.session, `/${CAPABILITY_SERVICE_NAME}/Nope`, [frame(Buffer.alloc(0))]);
    expect(res.trailers).toBeUndefined();
    expect(res.headers).toMatchObject({ ":status": 200, "content-type": "application/grpc", "grpc-status": "12" });
    expect(res.grpcMessage).toContain(`/${CAPABILITY_SERVICE_NAME}/Nope`);
  });

  it("answers a request that is not gRPC with an HTTP status: 415 for its content type, 405 for its method", async () => {
    const json = await rawCall(served.session, INVOKE_PATH, [Buffer.from("{}")], { "content-type": "application/json" });
    expect(json.headers[":status"]).toBe(415);
    expect(json.grpcStatus).toBeUndefined();
    const stream = served.session.request({ ":method": "GET", ":path": INVOKE_PATH, "content-type": "application/grpc" });
    stream.on("error", () => {});
    expect((await answer(stream)).headers[":status"]).toBe(405);
  });

  it("percent-encodes grpc-message outside printable ASCII, and '%' itself", async () => {
    const request = frame(HealthCheckRequest.encode({ service: "ж%" }).finish());
    const res = await rawCall(served.session, "/grpc.health.v1.Health/Check", [request]);
    expect(res).toMatchObject({ grpcStatus: 5, grpcMessage: 'unknown service "%D0%B6%25"' });
  });
});

describe("bounds", () => {
  it("refuses a message from its length prefix, before any of its bytes arrive, naming the bound", async () => {
    const stream = open(served.session, INVOKE_PATH);
    const answered = answer(stream);
    const prefix = Buffer.from([0, 0, 0, 0, 0]);
    prefix.writeUInt32BE(64 * 1024 * 1024, 1);
    // Only the 5-byte prefix is sent, and the request is never ended: the answer cannot wait for the rest.
    await send(stream, [prefix], false);
    const res = await answered;
    expect(res.grpcStatus).toBe(8);
    expect(res.grpcMessage).toMatch(/^Received message larger than max \(67108864 vs \d+ bytes, the largest request this server accepts\)$/);
  });
});

describe("deadlines and cancellation", () => {
  it("ends a call at its grpc-timeout with DEADLINE_EXCEEDED and cancels the tool", async () => {
    const before = observed.aborted;
    const res = await rawCall(served.session, INVOKE_PATH, [frame(invokeBytes("slow", { ms: 5000 }))], { "grpc-timeout": "200m" });
    expect(res.grpcStatus).toBe(4);
    await until(() => observed.aborted > before && served.h.server.runtime.inFlightCount === 0);
  });

  it("refuses a malformed grpc-timeout", async () => {
    const res = await rawCall(served.session, INVOKE_PATH, [frame(invokeBytes("echo", { text: "x" }))], { "grpc-timeout": "soon" });
    expect(res).toMatchObject({ grpcStatus: 13, grpcMessage: expect.stringContaining("grpc-timeout") });
  });

  it("cancels the tool when the client resets its stream mid-call", async () => {
    const before = observed.aborted;
    const stream = open(served.session, INVOKE_PATH);
    await send(stream, [frame(invokeBytes("slow", { ms: 5000 }))]);
    await until(() => served.h.server.runtime.inFlightCount === 1);
    stream.close(constants.NGHTTP2_CANCEL);
    await until(() => observed.aborted > before && served.h.server.runtime.inFlightCount === 0);
  });

  it("cancels the tool when the connection is lost mid-call", async () => {
    const before = observed.aborted;
    const lost = connect(`127.0.0.1:${served.h.server.port}`);
    await send(open(lost, INVOKE_PATH), [frame(invokeBytes("slow", { ms: 5000 }))]);
    await until(() => served.h.server.runtime.inFlightCount === 1);
    lost.destroy();
    await until(() => observed.aborted > before && served.h.server.runtime.inFlightCount === 0);
  });
});
