import { fileURLToPath } from "node:url";
import { credentials, loadPackageDefinition, type Client } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pattern, sha256, testCapability } from "./fixtures/capability.ts";
import { start, type Harness } from "./fixtures/client.ts";

// Every RPC, from a client built from an independent copy of Selu's proto (no shared code).
type Dynamic = Client & Record<string, (...args: any[]) => any>;
let h: Harness;
let client: Dynamic;

beforeAll(async () => {
  h = await start(testCapability);
  const def = loadSync(fileURLToPath(new URL("fixtures/selu-independent.proto", import.meta.url)), { keepCase: true, longs: Number, defaults: true });
  const pkg = loadPackageDefinition(def) as any;
  client = new pkg.selu.capability.v1.Capability(`127.0.0.1:${h.server.port}`, credentials.createInsecure());
});
afterAll(async () => {
  client.close();
  await h.close();
});

const unary = <T>(method: string, request: unknown) => new Promise<T>((resolve, reject) => client[method]!(request, (err: Error | null, res: T) => (err ? reject(err) : resolve(res))));
const collect = <T>(stream: NodeJS.EventEmitter) =>
  new Promise<T[]>((resolve, reject) => {
    const out: T[] = [];
    stream.on("data", (c: T) => out.push(c));
    stream.on("end", () => resolve(out));
    stream.on("error", reject);
  });

describe("a client from an independent copy of Selu's proto", () => {
  it("Healthcheck answers ready", async () => {
    expect(await unary("Healthcheck", {})).toEqual({ ready: true, message: "ready" });
  });

  it("Invoke answers result_json", async () => {
    const res = await unary<{ result_json: Buffer; error: string }>("Invoke", {
      tool_name: "echo",
      args_json: Buffer.from('{"text":"hi"}'),
      config_json: Buffer.from("{}"),
      session_id: "s",
      capability_id: "kit-test",
      thread_id: "",
    });
    expect(res.error).toBe("");
    expect(JSON.parse(res.result_json.toString())).toEqual({ text: "hi" });
  });

  it("StreamInvoke streams progress and the final chunk", async () => {
    const chunks = await collect<{ data: Buffer; done: boolean }>(client.StreamInvoke!({ tool_name: "slow", args_json: Buffer.from('{"ms":10,"steps":2}'), config_json: Buffer.from("{}") }));
    expect(chunks.map((c) => c.done)).toEqual([false, false, true]);
  });

  it("UploadInputArtifact then Invoke with the uploaded id, then DownloadOutputArtifact", async () => {
    const bytes = pattern(300_000);
    const up = await new Promise<{ capability_artifact_id: string; size_bytes: number; error: string }>((resolve, reject) => {
      const s = client.UploadInputArtifact!((err: Error | null, r: any) => (err ? reject(err) : resolve(r)));
      s.write({ filename: "in.bin", mime_type: "application/octet-stream", data: bytes.subarray(0, 262_144) });
      s.write({ data: bytes.subarray(262_144) });
      s.end();
    });
    expect(up).toMatchObject({ size_bytes: 300_000, error: "" });

    const res = await unary<{ result_json: Buffer }>("Invoke", {
      tool_name: "digest",
      args_json: Buffer.from(JSON.stringify({ attachments: [{ capability_artifact_id: up.capability_artifact_id }] })),
    });
    expect(JSON.parse(res.result_json.toString()).files[0].sha256).toBe(sha256(bytes));

    const made = await unary<{ result_json: Buffer }>("Invoke", { tool_name: "make_file", args_json: Buffer.from('{"size":600000}') });
    const { artifact, sha256: expected } = JSON.parse(made.result_json.toString());
    const chunks = await collect<{ data: Buffer; filename: string; done: boolean; error: string }>(client.DownloadOutputArtifact!({ capability_artifact_id: artifact.capability_artifact_id }));
    expect(chunks[0]!.filename).toBe("data.bin");
    expect(chunks.at(-1)!.done).toBe(true);
    expect(sha256(Buffer.concat(chunks.map((c) => c.data)))).toBe(expected);
  });
});
