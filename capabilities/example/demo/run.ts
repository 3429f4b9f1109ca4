// The main job until the catalogue demo replaces it: starts the example capability with its production
// entrypoint, waits for readiness as Selu does, and makes the calls an agent would, applying Selu's
// artifact rules by hand (download and rewrite results, upload and rewrite attachments).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { credentials } from "@grpc/grpc-js";
import { CapabilityClient, type ArtifactChunk, type InvokeResponse } from "@selu-catalogue/proto";

const here = new URL("..", import.meta.url);
const outDir = new URL("../../../out/demo/", import.meta.url);
const sessionId = randomUUID();
const step = (title: string, detail?: unknown) =>
  console.log(`\n== ${title}${detail === undefined ? "" : `\n${typeof detail === "string" ? detail : JSON.stringify(detail, null, 2)}`}`);

const port = await freePort();
const start = JSON.parse(readFileSync(new URL("package.json", here), "utf8")).scripts.start as string;
step("start", `PORT=${port} ${start}`);
const child = spawn("sh", ["-c", `exec ${start}`], { cwd: here, env: { ...process.env, PORT: String(port), LOG_LEVEL: "warn" }, stdio: ["ignore", "inherit", "inherit"] });
const client = new CapabilityClient(`127.0.0.1:${port}`, credentials.createInsecure());

try {
  const readyMs = await waitReady();
  step("ready", `Healthcheck answered ready after ${readyMs} ms (polled every 200 ms, as Selu does)`);

  const echo = await invoke("echo", { text: "Hello from the example capability" });
  step("example__echo", echo);

  const made = await invoke("make_text_file", { filename: "note.txt", text: "Artifacts travel between tools without base64.\n" });
  step("example__make_text_file: result_json", made);
  const bytes = await download(made.artifact.capability_artifact_id);
  const artifactId = randomUUID();
  const rewritten = { ...made, artifact: { artifact_id: artifactId, filename: made.artifact.filename, mime_type: made.artifact.mime_type, size_bytes: bytes.byteLength } };
  step("orchestrator: downloaded the artifact and rewrote the result the model sees", rewritten);

  const upload = await uploadArtifact(bytes, made.artifact.filename, made.artifact.mime_type);
  const args = { attachments: [{ capability_artifact_id: upload.capabilityArtifactId, filename: made.artifact.filename, mime_type: made.artifact.mime_type, size_bytes: upload.sizeBytes }] };
  step(`orchestrator: uploaded ${artifactId} in 256 KiB chunks and rewrote attachments[]`, args);
  step("example__describe_files", await invoke("describe_files", args));

  mkdirSync(outDir, { recursive: true });
  writeFileSync(new URL("note.txt", outDir), bytes);
  step("done", `the artifact is in ${new URL("note.txt", outDir).pathname}`);
} finally {
  client.close();
  child.kill("SIGTERM");
  const code = await new Promise((resolve) => child.once("exit", resolve));
  step("stopped", `SIGTERM: the capability drained and exited with code ${code}`);
}

async function invoke(tool: string, args: unknown): Promise<any> {
  const res = await new Promise<InvokeResponse>((resolve, reject) =>
    client.invoke(
      { toolName: tool, argsJson: Buffer.from(JSON.stringify(args)), configJson: Buffer.from("{}"), sessionId, capabilityId: "example", threadId: "" },
      { deadline: Date.now() + 120_000 },
      (err, r) => (err ? reject(err) : resolve(r!)),
    ),
  );
  if (res.error) throw new Error(`${tool}: ${res.error}`);
  return JSON.parse(res.resultJson.toString("utf8"));
}

async function download(id: string): Promise<Buffer> {
  const chunks: ArtifactChunk[] = [];
  await new Promise<void>((resolve, reject) =>
    client.downloadOutputArtifact({ capabilityArtifactId: id }).on("data", (c: ArtifactChunk) => chunks.push(c)).on("end", resolve).on("error", reject),
  );
  const error = chunks.find((c) => c.error)?.error;
  if (error) throw new Error(error);
  return Buffer.concat(chunks.map((c) => c.data));
}

function uploadArtifact(bytes: Buffer, filename: string, mimeType: string) {
  return new Promise<{ capabilityArtifactId: string; sizeBytes: number }>((resolve, reject) => {
    const s = client.uploadInputArtifact((err, r) => (err ? reject(err) : r!.error ? reject(new Error(r!.error)) : resolve(r!)));
    for (let i = 0; i < Math.max(bytes.byteLength, 1); i += 262_144) {
      s.write({ filename: i === 0 ? filename : "", mimeType: i === 0 ? mimeType : "", data: bytes.subarray(i, i + 262_144) });
    }
    s.end();
  });
}

async function waitReady(): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 30_000) {
    const ready = await new Promise<boolean>((resolve) =>
      client.healthcheck({}, { deadline: Date.now() + 1_000 }, (err, r) => resolve(!err && !!r?.ready)),
    );
    if (ready) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the capability did not become ready within 30 s");
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    }).on("error", reject);
  });
}
