import { fileURLToPath } from "node:url";
import { loadManifest } from "@selu-catalogue/manifest";
import { Orchestrator, startCapabilityProcess, type CapabilityProcess } from "@selu-catalogue/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The production entrypoint (the start script, as the Dockerfile runs it) behind the orchestrator double:
// calls, uploads, downloads and artifact rewrites as Selu makes them.
const dir = fileURLToPath(new URL("..", import.meta.url));
const loaded = loadManifest(`${dir}/manifest.yaml`).manifest;
if (!loaded) throw new Error("manifest.yaml does not load");
const manifest = loaded;
let proc: CapabilityProcess;
let orchestrator: Orchestrator;

beforeAll(async () => {
  proc = await startCapabilityProcess(dir, { env: { LOG_LEVEL: "warn" } });
  orchestrator = new Orchestrator();
  await orchestrator.install(manifest, proc.address);
});
afterAll(async () => {
  await orchestrator?.close();
  expect(await proc?.stop()).toBe(0);
});

const call = (tool: string, args: Record<string, unknown>) => orchestrator.call(`${manifest.id}__${tool}`, args);

async function ok(tool: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const outcome = await call(tool, args);
  if (!outcome.ok) throw new Error(`${tool} failed: ${outcome.error}`);
  return outcome.result;
}

describe("example capability", () => {
  it("echoes", async () => {
    expect(await ok("echo", { text: "hi" })).toEqual({ text: "hi" });
  });

  it("makes a text file artifact, and describes it when it comes back as an attachment", async () => {
    const made = await ok("make_text_file", { filename: "a.txt", text: "héllo" });
    expect(made).toMatchObject({ ok: true, size_bytes: 6, artifact: { filename: "a.txt", mime_type: "text/plain; charset=utf-8" } });
    expect(orchestrator.vault.get(made.artifact.artifact_id)?.bytes.toString("utf8")).toBe("héllo");
    const described = await ok("describe_files", { attachments: [{ artifact_id: made.artifact.artifact_id }] });
    expect(described.files[0]).toMatchObject({ filename: "a.txt", size_bytes: 6 });
  });

  it("names the offending field of a bad file name", async () => {
    const outcome = await call("make_text_file", { filename: "../etc/passwd", text: "x" });
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? "" : outcome.error).toContain("invalid arguments for make_text_file: filename: expected a plain file name ending in .txt, e.g. notes.txt");
  });
});
