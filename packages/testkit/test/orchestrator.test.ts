import { serve, silentLogger, type Capability, type ServedCapability } from "@selu-catalogue/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Orchestrator } from "../src/orchestrator/index.js";
import { files, sloppy } from "./fixtures/capabilities.js";
import { rawCapability } from "./fixtures/raw-server.js";

const servers: ServedCapability[] = [];
async function install(orch: Orchestrator, cap: Capability) {
  const server = await serve(cap, { host: "127.0.0.1", port: 0, logger: silentLogger, handleSignals: false });
  servers.push(server);
  const d = cap.describe();
  await orch.install({ id: d.id, tools: d.tools, credentials: d.credentials }, `127.0.0.1:${server.port}`);
}

let orch: Orchestrator;
beforeAll(async () => {
  orch = new Orchestrator({ credentials: { files: { TOKEN: "tok-123456", ORG: "acme", UNDECLARED: "nope" } } });
  await install(orch, files);
  await install(orch, sloppy);
});
afterAll(async () => {
  await orch.close();
  await Promise.all(servers.map((s) => s.close(100)));
});

describe("calls as Selu makes them", () => {
  it("sends only declared credentials that are set, the session and an empty thread", async () => {
    const out = await orch.call("files__whoami", {});
    expect(out).toMatchObject({ ok: true, result: { session: orch.sessionId, thread: "", capability: "files", keys: ["ORG", "TOKEN"], token: "tok-123456" } });
  });

  it("strips the approval keys before dispatch", async () => {
    const out = await orch.call("files__whoami", { _approval_message: "ok?", _approval_message_i18n: {} });
    expect(out.ok).toBe(true);
  });

  it("refuses arguments that break the schema's type/required rules without calling", async () => {
    const before = orch.transcript.length;
    expect(await orch.call("files__write", { name: 1, text: "x" })).toEqual({
      ok: false,
      error: "Tool argument validation failed for 'files__write': $.name expected string. Regenerate this tool call with a valid argument shape.",
    });
    expect(orch.transcript.slice(before).some((e) => e.kind === "invoke")).toBe(false);
  });

  it("answers an unknown tool without calling, as Selu answers a tool with no policy", async () => {
    expect(await orch.call("files__nope", {})).toEqual({
      ok: false,
      error: "The tool 'files__nope' is not configured in your security policy. Ask the user to update their tool permissions for this agent.",
    });
  });
});

describe("artifacts as Selu handles them", () => {
  it("downloads `artifact`, stores it for the user and replaces it with {artifact_id, filename, mime_type, size_bytes}", async () => {
    const out = await orch.call("files__write", { name: "a.txt", text: "alpha" });
    if (!out.ok) throw new Error(out.error);
    const artifact = out.result.artifact as Record<string, unknown>;
    expect(Object.keys(artifact).sort()).toEqual(["artifact_id", "filename", "mime_type", "size_bytes"]);
    expect(artifact).toMatchObject({ filename: "a.txt", mime_type: "text/plain", size_bytes: 5 });
    expect(orch.vault.get(artifact.artifact_id as string)?.bytes.toString()).toBe("alpha");
  });

  it("rewrites every `artifacts[]` element and keeps the other keys of the result", async () => {
    const out = await orch.call("files__write_many", { count: 2 });
    if (!out.ok) throw new Error(out.error);
    expect(out.result.note).toBe("kept");
    expect((out.result.artifacts as { size_bytes: number }[]).map((a) => a.size_bytes)).toEqual([300_000, 300_000]);
  });

  it("uploads attachments in 256 KiB chunks and rewrites them, keeping other keys", async () => {
    const made = await orch.call("files__write", { name: "b.txt", text: "bravo" });
    if (!made.ok) throw new Error(made.error);
    const id = (made.result.artifact as { artifact_id: string }).artifact_id;
    const out = await orch.call("files__read", { attachments: [{ artifact_id: id, note: "keep me" }] });
    if (!out.ok) throw new Error(out.error);
    expect(out.result.texts).toEqual(["bravo"]);
    const seen = (out.result.seen as Record<string, unknown>[])[0]!;
    expect(seen).toMatchObject({ filename: "b.txt", mime_type: "text/plain", size_bytes: 5, note: "keep me" });
    expect(seen).not.toHaveProperty("artifact_id");
    expect(orch.transcript.some((e) => e.kind === "upload" && e.artifactId === id && e.chunks === 1)).toBe(true);
  });

  it("refuses another user's artifact as not found", async () => {
    const made = await orch.call("files__write", { name: "c.txt", text: "charlie" }, { user: "alice" });
    if (!made.ok) throw new Error(made.error);
    const id = (made.result.artifact as { artifact_id: string }).artifact_id;
    expect(await orch.call("files__read", { attachments: [{ artifact_id: id }] }, { user: "mallory" })).toEqual({ ok: false, error: `Tool error: Attachment artifact not found or expired: ${id}` });
  });

  it("fails the test when a capability returns a top-level artifact_id, which Selu ignores", async () => {
    await expect(orch.call("sloppy__make", {})).rejects.toThrow(/top-level "artifact_id", which Selu ignores/);
  });
});

describe("dynamic discovery", () => {
  it("accepts a top-level array of tools", async () => {
    const raw = await rawCapability(JSON.stringify([{ name: "t1", description: "d", input_schema: { type: "object" } }]));
    const o = new Orchestrator();
    await o.install({ id: "dyn", tool_source: "dynamic", tools: [], credentials: [] }, raw.address);
    expect(await o.call("dyn__t1", {})).toMatchObject({ ok: true });
    await o.close();
    raw.close();
  });

  it.each([
    ['{"tools":[]}', "Discovery payload must be a JSON array of tools"],
    ["not json", "Discovery tool returned invalid JSON payload"],
    ['[{"name":"  ","description":"d","input_schema":{}}]', "Discovery tool contains an empty tool name"],
    ['[{"name":"a","description":"d"}]', "Discovery payload item is invalid: missing field `input_schema`"],
    ['[{"name":"a","description":"d","input_schema":{},"recommended_policy":1}]', "Discovery payload item is invalid: recommended_policy: expected a string"],
    ['[{"name":"a","description":"d","input_schema":{}},{"name":"a","description":"d","input_schema":{}}]', "Discovery payload contains duplicate tool name 'a'"],
  ])("rejects %s", async (answer, message) => {
    const raw = await rawCapability(answer);
    const o = new Orchestrator();
    await expect(o.install({ id: "dyn", tool_source: "dynamic", tools: [], credentials: [] }, raw.address)).rejects.toThrow(message);
    await o.close();
    raw.close();
  });
});
