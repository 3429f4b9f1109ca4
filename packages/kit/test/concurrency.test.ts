import { setTimeout as sleep } from "node:timers/promises";
import { status, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { observed, sha256, testCapability } from "./fixtures/capability.ts";
import { call, download, invoke, start, upload, type Harness } from "./fixtures/client.ts";
import { pattern } from "./fixtures/capability.ts";

let h: Harness;
beforeAll(async () => (h = await start(testCapability)));
afterAll(() => h.close());

describe("concurrency", () => {
  it("answers 500 parallel Invokes, each with its own result", async () => {
    const results = await Promise.all(Array.from({ length: 500 }, (_, i) => call(h.client, "echo", { text: `n${i}` })));
    expect(results.map((r) => r.text)).toEqual(Array.from({ length: 500 }, (_, i) => `n${i}`));
  });

  it("runs slow calls concurrently rather than one after another", async () => {
    observed.maxRunning = 0;
    const started = Date.now();
    await Promise.all(Array.from({ length: 20 }, () => call(h.client, "slow", { ms: 300 })));
    expect(observed.maxRunning).toBe(20);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("serves parallel uploads and downloads without mixing bytes", async () => {
    const made = await Promise.all(Array.from({ length: 6 }, (_, i) => call(h.client, "make_file", { size: 1_500_000 + i })));
    const inputs = Array.from({ length: 6 }, (_, i) => pattern(900_000 + i * 1000));
    const [downloads, uploads] = await Promise.all([
      Promise.all(made.map((m) => download(h.client, m.artifact.capability_artifact_id))),
      Promise.all(inputs.map((b, i) => upload(h.client, b, `in${i}.bin`, "application/octet-stream"))),
    ]);
    downloads.forEach((chunks, i) => expect(sha256(Buffer.concat(chunks.map((c) => c.data)))).toBe(made[i]!.sha256));
    const digests = await Promise.all(uploads.map((u) => call(h.client, "digest", { attachments: [{ capability_artifact_id: u.capabilityArtifactId }] })));
    digests.forEach((d, i) => expect(d.files[0].sha256).toBe(sha256(inputs[i]!)));
  });
});

describe("cancellation", () => {
  it("aborts the handler's signal when the client cancels an Invoke", async () => {
    const before = observed.aborted;
    const pending = h.client.invoke({ toolName: "slow", argsJson: Buffer.from('{"ms":5000}'), configJson: Buffer.from("{}"), sessionId: "", capabilityId: "", threadId: "" }, () => {});
    await sleep(100);
    pending.cancel();
    await waitFor(() => observed.aborted > before);
    expect(h.server.runtime.inFlightCount).toBe(0);
  });

  it("aborts the handler's signal when the client's deadline passes", async () => {
    const before = observed.aborted;
    const err = await invoke(h.client, { tool: "slow", args: { ms: 5000 }, deadlineMs: 150 }).catch((e: ServiceError) => e);
    expect((err as ServiceError).code).toBe(status.DEADLINE_EXCEEDED);
    await waitFor(() => observed.aborted > before);
  });

  it("stops streaming a download the client cancels mid-stream, and keeps serving", async () => {
    const made = await call(h.client, "make_file", { size: 5 * 1024 * 1024 });
    const stream = h.client.downloadOutputArtifact({ capabilityArtifactId: made.artifact.capability_artifact_id });
    let received = 0;
    await new Promise<void>((resolve) => {
      stream.on("data", (c: { data: Buffer }) => {
        received += c.data.byteLength;
        if (received >= 512 * 1024) {
          stream.cancel();
          resolve();
        }
      });
    });
    stream.on("error", () => {});
    expect(received).toBeLessThan(5 * 1024 * 1024);
    const again = await download(h.client, made.artifact.capability_artifact_id);
    expect(sha256(Buffer.concat(again.map((c) => c.data)))).toBe(made.sha256);
  });

  it("drops a cancelled upload and gives its memory back", async () => {
    const s = h.client.uploadInputArtifact(() => {});
    s.write({ filename: "x.bin", mimeType: "application/octet-stream", data: pattern(256 * 1024) });
    await waitFor(() => h.server.runtime.store.stats().reservedBytes > 0);
    s.cancel();
    await waitFor(() => h.server.runtime.store.stats().reservedBytes === 0);
  });
});

async function waitFor(check: () => boolean, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("condition not reached in time");
    await sleep(10);
  }
}
