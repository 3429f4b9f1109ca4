import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { credentials, Metadata } from "@grpc/grpc-js";
import { CapabilityClient, type InvokeResponse } from "@selu-catalogue/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Drives the production entrypoint (the start script, as the Dockerfile runs it) over real gRPC.
const dir = fileURLToPath(new URL("..", import.meta.url));
let child: ChildProcess;
let client: CapabilityClient;

beforeAll(async () => {
  const port = await freePort();
  const start = JSON.parse(readFileSync(`${dir}/package.json`, "utf8")).scripts.start as string;
  child = spawn("sh", ["-c", `exec ${start}`], { cwd: dir, env: { ...process.env, PORT: String(port) }, stdio: "ignore" });
  client = new CapabilityClient(`127.0.0.1:${port}`, credentials.createInsecure());
  for (let i = 0; i < 150; i++) {
    const ready = await new Promise<boolean>((r) => client.healthcheck({}, new Metadata(), { deadline: Date.now() + 500 }, (e, res) => r(!e && !!res?.ready)));
    if (ready) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("not ready within 30 s");
});
afterAll(async () => {
  client.close();
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
});

const invoke = (tool: string, args: unknown) =>
  new Promise<InvokeResponse>((resolve, reject) =>
    client.invoke(
      { toolName: tool, argsJson: Buffer.from(JSON.stringify(args)), configJson: Buffer.from("{}"), sessionId: "s", capabilityId: "example", threadId: "" },
      (e, r) => (e ? reject(e) : resolve(r!)),
    ),
  );

describe("example capability", () => {
  it("echoes", async () => {
    const res = await invoke("echo", { text: "hi" });
    expect(JSON.parse(res.resultJson.toString())).toEqual({ text: "hi" });
  });

  it("makes a text file artifact and describes it after a round trip", async () => {
    const made = JSON.parse((await invoke("make_text_file", { filename: "a.txt", text: "héllo" })).resultJson.toString());
    expect(made).toMatchObject({ ok: true, size_bytes: 6, artifact: { filename: "a.txt", mime_type: "text/plain; charset=utf-8" } });
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      const parts: Buffer[] = [];
      client.downloadOutputArtifact({ capabilityArtifactId: made.artifact.capability_artifact_id })
        .on("data", (c: { data: Buffer }) => parts.push(c.data)).on("end", () => resolve(Buffer.concat(parts))).on("error", reject);
    });
    expect(bytes.toString("utf8")).toBe("héllo");
    const up = await new Promise<{ capabilityArtifactId: string }>((resolve, reject) => {
      const s = client.uploadInputArtifact((e, r) => (e ? reject(e) : resolve(r!)));
      s.write({ filename: "a.txt", mimeType: "text/plain", data: bytes });
      s.end();
    });
    const described = JSON.parse((await invoke("describe_files", { attachments: [{ capability_artifact_id: up.capabilityArtifactId, filename: "a.txt", mime_type: "text/plain", size_bytes: 6 }] })).resultJson.toString());
    expect(described.files[0]).toMatchObject({ filename: "a.txt", size_bytes: 6 });
  });

  it("names the offending field of a bad file name", async () => {
    const res = await invoke("make_text_file", { filename: "../etc/passwd", text: "x" });
    expect(res.error).toBe("invalid arguments for make_text_file: filename: expected a plain file name ending in .txt, e.g. notes.txt");
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
