import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pattern, sha256, testCapability } from "./fixtures/capability.ts";
import { call, download, invoke, start, upload, type Harness } from "./fixtures/client.ts";

let h: Harness;
beforeAll(async () => (h = await start(testCapability)));
afterAll(() => h.close());

const MiB = 1024 * 1024;

describe("output artifacts", () => {
  it("returns the object Selu looks for under `artifact`, with a 128-bit random id", async () => {
    const result = await call(h.client, "make_file", { size: 10, filename: "a.bin" });
    expect(Object.keys(result.artifact).sort()).toEqual(["capability_artifact_id", "filename", "mime_type"]);
    expect(result.artifact.capability_artifact_id).toMatch(/^[0-9a-f]{32}$/);
    expect(result).not.toHaveProperty("artifact_id");
  });

  it("returns several under `artifacts`", async () => {
    const result = await call(h.client, "make_files", { count: 3 });
    expect(result.artifacts.map((a: { filename: string }) => a.filename)).toEqual(["f0.txt", "f1.txt", "f2.txt"]);
    const ids = new Set(result.artifacts.map((a: { capability_artifact_id: string }) => a.capability_artifact_id));
    expect(ids.size).toBe(3);
  });

  it("streams a download in 256 KiB chunks, name and type on the first, done on the last", async () => {
    const size = 5 * MiB - 123;
    const result = await call(h.client, "make_file", { size, filename: "big.bin" });
    const chunks = await download(h.client, result.artifact.capability_artifact_id);
    expect(chunks.length).toBe(Math.ceil(size / (256 * 1024)));
    expect(chunks.slice(0, -1).every((c) => c.data.byteLength === 256 * 1024)).toBe(true);
    expect(chunks[0]!.filename).toBe("big.bin");
    expect(chunks[0]!.mimeType).toBe("application/octet-stream");
    expect(chunks.slice(1).every((c) => c.filename === "" && c.mimeType === "")).toBe(true);
    expect(chunks.map((c) => c.done)).toEqual([...Array(chunks.length - 1).fill(false), true]);
    expect(chunks.every((c) => c.error === "")).toBe(true);
    expect(sha256(Buffer.concat(chunks.map((c) => c.data)))).toBe(result.sha256);
  });

  it("serves 1,200 downloads on one connection to a client that drops each at its done chunk, as Selu does", async () => {
    // Each drop resets the stream; Node's HTTP/2 guard closed the connection after 1,000 (server.ts).
    const dropAtDone = (id: string) =>
      new Promise<Buffer>((resolve, reject) => {
        const stream = h.client.downloadOutputArtifact({ capabilityArtifactId: id });
        stream.on("data", (c: { data: Buffer; done: boolean; error: string }) => {
          if (c.error) reject(new Error(c.error));
          if (!c.done) return;
          resolve(c.data);
          stream.cancel();
        });
        stream.on("error", (err: { code?: number }) => err.code !== 1 && reject(err));
      });
    for (let i = 0; i < 1_200; i++) {
      const result = await call(h.client, "make_file", { size: 10, filename: "a.bin" });
      expect((await dropAtDone(result.artifact.capability_artifact_id)).byteLength).toBe(10);
    }
  });

  it("stores a streamed artifact chunk by chunk, intact", async () => {
    const result = await call(h.client, "make_file", { size: 1_000_001, streamed: true });
    const chunks = await download(h.client, result.artifact.capability_artifact_id);
    expect(sha256(Buffer.concat(chunks.map((c) => c.data)))).toBe(result.sha256);
  });

  it("answers an error chunk for an unknown id", async () => {
    const chunks = await download(h.client, "0".repeat(32));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.done).toBe(true);
    expect(chunks[0]!.data.byteLength).toBe(0);
    expect(chunks[0]!.error).toMatch(/^unknown or expired artifact id "0{32}"; artifacts are kept for 360 minutes$/);
  });

  it("refuses an output over the per-file cap with the limit in words", async () => {
    const res = await invoke(h.client, { tool: "make_file", args: { size: 5 * MiB + 1, filename: "huge.bin" } });
    expect(res.error).toBe('the file "huge.bin" is larger than this capability\'s limit of 5 MiB per file');
  });

  it("refuses a streamed output as soon as it passes the cap", async () => {
    const res = await invoke(h.client, { tool: "make_file", args: { size: 6 * MiB, streamed: true } });
    expect(res.error).toContain("larger than this capability's limit of 5 MiB");
    expect(h.server.runtime.store.stats().reservedBytes).toBe(0);
  });

  it("refuses an empty output, which Selu would reject as no data", async () => {
    expect((await invoke(h.client, { tool: "make_file", args: { size: 0, filename: "e.txt" } })).error).toBe('the file "e.txt" is empty');
  });

  it("does not serve input artifacts as downloads", async () => {
    const up = await upload(h.client, Buffer.from("secret input"), "in.txt", "text/plain");
    const chunks = await download(h.client, up.capabilityArtifactId);
    expect(chunks[0]!.error).toMatch(/^unknown or expired artifact id/);
  });
});

describe("input artifacts", () => {
  it("receives an upload and resolves it through attachments[]", async () => {
    const bytes = pattern(700_000);
    const up = await upload(h.client, bytes, "photo.png", "image/png");
    expect(up.error).toBe("");
    expect(up.sizeBytes).toBe(700_000);
    const result = await call(h.client, "digest", {
      attachments: [{ capability_artifact_id: up.capabilityArtifactId, filename: "photo.png", mime_type: "image/png", size_bytes: 700_000 }],
    });
    expect(result.files).toEqual([{ filename: "photo.png", mime_type: "image/png", size: 700_000, sha256: sha256(bytes) }]);
  });

  it("accepts an empty file sent as one empty chunk", async () => {
    const up = await upload(h.client, Buffer.alloc(0), "empty.txt", "text/plain");
    expect(up).toMatchObject({ error: "", sizeBytes: 0 });
    expect(up.capabilityArtifactId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("refuses an upload over the cap while receiving, not after", async () => {
    // The client never ends the stream: an answer can only come from the server refusing mid-stream.
    const res = await new Promise<{ error: string; capabilityArtifactId: string }>((resolve, reject) => {
      const s = h.client.uploadInputArtifact((err, r) => (err ? reject(err) : resolve(r!)));
      for (let i = 0; i < 21; i++) {
        s.write({ filename: i === 0 ? "big.pdf" : "", mimeType: i === 0 ? "application/pdf" : "", data: pattern(256 * 1024) });
      }
    });
    expect(res.error).toBe('upload refused: the file "big.pdf" is larger than this capability\'s limit of 5 MiB per file');
    expect(res.capabilityArtifactId).toBe("");
    expect(h.server.runtime.store.stats().reservedBytes).toBe(0);
  });

  it("refuses an upload with no chunks at all", async () => {
    const res = await new Promise<{ error: string }>((resolve, reject) => {
      const s = h.client.uploadInputArtifact((err, r) => (err ? reject(err) : resolve(r!)));
      s.end();
    });
    expect(res.error).toBe("upload refused: no chunks were received");
  });

  it("names the attachment whose id is unknown", async () => {
    const res = await invoke(h.client, { tool: "digest", args: { attachments: [{ capability_artifact_id: "f".repeat(32) }] } });
    expect(res.error).toBe(`attachments[0]: no uploaded file with id "${"f".repeat(32)}" (it expired or was never uploaded to this capability); attach the artifact again`);
  });

  it("explains an attachment that the orchestrator did not upload", async () => {
    const res = await invoke(h.client, { tool: "digest", args: { attachments: [{ artifact_id: "abc" }] } });
    expect(res.error).toBe(
      "invalid arguments for digest: attachments[0].capability_artifact_id: has no capability_artifact_id: the file was not uploaded by the orchestrator; pass an artifact_id from an earlier tool result",
    );
  });

  it("advertises attachments to the model as [{artifact_id}]", () => {
    const digest = testCapability.describe().tools.find((t) => t.name === "digest")!;
    expect(digest.input_schema).toEqual({
      type: "object",
      properties: {
        attachments: {
          type: "array",
          description: "Files to digest",
          minItems: 1,
          maxItems: 4,
          items: {
            type: "object",
            properties: { artifact_id: { type: "string", description: "An artifact_id from an earlier tool result" } },
            required: ["artifact_id"],
          },
        },
      },
      required: ["attachments"],
      additionalProperties: false,
    });
  });
});
