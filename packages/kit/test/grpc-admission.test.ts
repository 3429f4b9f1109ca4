// How the kit's gRPC server shares one connection between its streams (src/grpc/server/admission.ts): a
// bounded number run, as many again wait unread. Until 26 Nov the bound was only HTTP/2's
// SETTINGS_MAX_CONCURRENT_STREAMS, and Node reset a queued call that a client sent as it cancelled
// another (RESOURCE_EXHAUSTED "Bandwidth exhausted"): the grpc-js test below failed 3 times in 4.
import { fork } from "node:child_process";
import type { ClientHttp2Stream } from "node:http2";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { credentials } from "@grpc/grpc-js";
import { type ArtifactChunk, CapabilityClient } from "@selu-catalogue/proto";
import { HealthCheckRequest, HealthClient, HealthService } from "@selu-catalogue/proto/standard";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GrpcServer, Status } from "../src/grpc/server/index.ts";
import { call } from "./fixtures/client.ts";
import { answer, connect, frame, open } from "./fixtures/raw-call.ts";

const RUNNING = 2;
const WAITING = 2;
const CHECK_PATH = "/grpc.health.v1.Health/Check";

/** Checks of service "slow" never answer; each other check answers at once. */
const seen = { started: 0, cancelled: 0 };
let server: GrpcServer;
let address: string;

beforeAll(async () => {
  server = new GrpcServer({ maxReceiveBytes: 4 * 1024 * 1024, maxSendBytes: 1024, maxConcurrentStreams: RUNNING, maxWaitingStreams: WAITING });
  server.addService(HealthService, {
    check: (call, respond) => {
      seen.started += 1;
      if (call.request.service !== "slow") return respond(null, { status: 1 });
      call.onCancel(() => (seen.cancelled += 1));
    },
    watch: () => {},
    list: (_call, respond) => respond(null, { statuses: {} }),
  });
  address = `127.0.0.1:${await server.listen("127.0.0.1", 0)}`;
});

afterAll(() => server.forceShutdown());

const checkBytes = (service: string) => frame(HealthCheckRequest.encode({ service }).finish());

/** A raw Check that stays open: its request is sent but never ended. */
function slowCall(session: ReturnType<typeof connect>): ClientHttp2Stream {
  const stream = open(session, CHECK_PATH);
  stream.end(checkBytes("slow"));
  return stream;
}

/** A new connection whose running slots hold calls that never answer, and the checks started so far. */
async function slotsFull() {
  const session = connect(address);
  const slow = Array.from({ length: RUNNING }, () => slowCall(session));
  await sleep(50);
  return { session, slow, started: seen.started };
}

describe("streams on one connection", () => {
  it("advertises the streams that run and those that wait", async () => {
    const session = connect(address);
    await new Promise((resolve) => session.once("remoteSettings", resolve));
    expect(session.remoteSettings.maxConcurrentStreams).toBe(RUNNING + WAITING);
    session.close();
  });

  it("runs waiting calls in the slots of calls the client cancels, sent in the same breath (grpc-js)", async () => {
    for (let round = 0; round < 20; round++) {
      const client = new HealthClient(address, credentials.createInsecure());
      const slow = Array.from({ length: RUNNING }, () => client.check({ service: "slow" }, () => {}));
      await sleep(10);
      const queued = Array.from({ length: WAITING }, () => new Promise<unknown>((resolve) => client.check({ service: "" }, (err, res) => resolve(err ? err.message : res))));
      await sleep(10);
      for (const call of slow) call.cancel();
      expect(await Promise.all(queued)).toEqual(Array.from({ length: WAITING }, () => ({ status: 1 })));
      client.close();
    }
  });

  it("reads a waiting call's request no further than one flow-control window until it runs", async () => {
    const { session, slow, started } = await slotsFull();
    const waiting = open(session, CHECK_PATH);
    const answered = answer(waiting);
    let sent = false;
    // 1 MiB: past the 64 KiB window, so the write completes only once the server reads.
    waiting.write(checkBytes("w".repeat(1024 * 1024)), () => (sent = true));
    waiting.end();
    await sleep(300);
    expect(sent).toBe(false);
    expect(seen.started).toBe(started);
    slow[0]!.close();
    expect(await answered).toMatchObject({ grpcStatus: Status.OK });
    expect(sent).toBe(true);
    session.destroy();
  });

  it("counts a waiting call's deadline from its arrival, and never starts a call that ended while waiting", async () => {
    const { session, slow, started } = await slotsFull();
    const waiting = open(session, CHECK_PATH, { "grpc-timeout": "100m" });
    const answered = answer(waiting);
    waiting.end(checkBytes(""));
    expect(await answered).toMatchObject({ grpcStatus: Status.DEADLINE_EXCEEDED });
    for (const stream of slow) stream.close();
    await sleep(50);
    expect(seen.started).toBe(started);
    session.destroy();
  });

  it("tells a client that goes on sending after its answer to stop once it has the answer", async () => {
    const session = connect(address);
    // No such method: answered at once, while the client still has 4 MiB to send and never ends.
    const stream = open(session, "/no.Such/Method");
    const answered = answer(stream);
    const chunks = 64;
    let written = 0;
    for (let i = 0; i < chunks && !stream.destroyed; i++) {
      await new Promise<void>((resolve) => stream.write(Buffer.alloc(64 * 1024), (error) => (error ? undefined : (written += 1), resolve())));
    }
    expect(await answered).toMatchObject({ grpcStatus: Status.UNIMPLEMENTED, rstCode: 0 });
    // Stopped within a few round trips, long before 4 MiB pass a 64 KiB flow-control window.
    expect(written).toBeLessThan(chunks / 2);
    session.destroy();
  });

  it("runs a call queued behind a request that ends after its answer, sent in the same breath", async () => {
    for (let round = 0; round < 10; round++) {
      const session = connect(address);
      // The client queues streams past the bound only once it knows the bound.
      await new Promise((resolve) => session.once("remoteSettings", resolve));
      // All the streams advertised in use: two calls run, one waits, one was answered at once and its
      // client still sends. The next call waits in the client until one of them closes.
      const slow = Array.from({ length: RUNNING + 1 }, () => slowCall(session));
      const early = open(session, "/no.Such/Method");
      const earlyAnswered = answer(early);
      early.end(Buffer.alloc(1024 * 1024));
      const queued = open(session, CHECK_PATH);
      const queuedAnswered = answer(queued);
      queued.end(checkBytes(""));
      expect(await earlyAnswered).toMatchObject({ grpcStatus: Status.UNIMPLEMENTED });
      for (const stream of slow) stream.close();
      expect(await queuedAnswered).toMatchObject({ grpcStatus: Status.OK, rstCode: 0 });
      session.destroy();
    }
  });
});

describe("streams a capability's server advertises", () => {
  it("are at least the 100 RFC 9113 recommends, so a burst sent as a download is cancelled runs whole (grpc-js)", async () => {
    // Another process, as Selu is: in one process the server's turn of the event loop always comes first.
    const child = fork(fileURLToPath(new URL("fixtures/entry-server.ts", import.meta.url)), { stdio: ["ignore", "ignore", "ignore", "ipc"], env: { ...process.env, PORT: "0", LOG_LEVEL: "warn" } });
    try {
      const { port } = await new Promise<{ port: number }>((resolve) => child.once("message", resolve as (m: unknown) => void));
      const session = connect(`127.0.0.1:${port}`);
      await new Promise((resolve) => session.once("remoteSettings", resolve));
      expect(session.remoteSettings.maxConcurrentStreams).toBe(100);
      session.destroy();
      // As Selu and the conformance suite do: a download cancelled at its first chunk (here an error
      // chunk), then more calls at once than the 52 streams the kit's defaults used to advertise. Then a
      // call was lost now and then: one run of 10 rounds in three failed; the pdf capability, at 28, lost
      // one in 11 of 40 such rounds.
      const client = new CapabilityClient(`127.0.0.1:${port}`, credentials.createInsecure());
      for (let round = 0; round < 40; round++) {
        await new Promise<void>((resolve) => {
          const stream = client.downloadOutputArtifact({ capabilityArtifactId: "0".repeat(32) });
          stream.on("data", (_chunk: ArtifactChunk) => (stream.cancel(), resolve()));
          stream.on("error", () => {});
        });
        const results = await Promise.all(Array.from({ length: 60 }, (_, i) => call(client, "echo", { text: `${round}.${i}` })));
        expect(results.map((r) => r.text)).toEqual(Array.from({ length: 60 }, (_, i) => `${round}.${i}`));
      }
      client.close();
    } finally {
      child.kill();
    }
  });
});
