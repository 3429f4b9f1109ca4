import { fileURLToPath } from "node:url";
import { Metadata, status } from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { startCapabilityProcess } from "../src/process/index.js";
import { connectCapability, invokeCapability, Orchestrator, SHARED_SLOT_WAIT_MS, type ContainerRequest, type ContainerStarter, type ManifestView } from "../src/orchestrator/index.js";
import { rawCapability, rawManifest, type RawAnswer, type RawCapability } from "./fixtures/raw-server.js";

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of cleanup.splice(0).reverse()) await stop();
});

/** A starter that runs a fresh raw capability per container, recording what Selu's runner was asked. */
function starter(answer: (req: Parameters<Parameters<typeof rawCapability>[0] & object>[0], container: RawCapability) => RawAnswer, options: { delayMs?: number } = {}) {
  const started: { request: ContainerRequest; raw: RawCapability; stopped: boolean }[] = [];
  const start: ContainerStarter = async (request) => {
    let self: RawCapability | undefined;
    const raw = await rawCapability((req) => answer(req, self!), options);
    self = raw;
    const entry = { request, raw, stopped: false };
    started.push(entry);
    cleanup.push(() => raw.close());
    return { address: raw.address, stop: async () => ((entry.stopped = true), raw.close()) };
  };
  return { start, started };
}

async function double(manifest: ManifestView, target: string | ContainerStarter, options: ConstructorParameters<typeof Orchestrator>[0] = {}) {
  const orch = new Orchestrator(options);
  await orch.install(manifest, target);
  cleanup.push(() => orch.close());
  return orch;
}

/** A starter that runs the crasher fixture's production entrypoint per container; `extra(n)` adds env to the n-th. */
function processStarter(extra: (n: number) => Record<string, string>) {
  const started: { request: ContainerRequest; exitCode: number | null | undefined }[] = [];
  const start: ContainerStarter = async (request) => {
    const entry: { request: ContainerRequest; exitCode: number | null | undefined } = { request, exitCode: undefined };
    started.push(entry);
    const proc = await startCapabilityProcess(crasherDir, { env: { ...request.env, ...extra(started.length) } });
    proc.child.once("exit", (code, signal) => (entry.exitCode = code ?? (signal ? 128 : null)));
    cleanup.push(() => proc.stop());
    return { address: proc.address, stop: () => proc.stop() };
  };
  return { start, started };
}
const crasherDir = fileURLToPath(new URL("fixtures/crasher/", import.meta.url));
const crasher = (mode: "shared" | "exclusive") => rawManifest("crasher", ["work"], { sharing: { mode, max_concurrent: 1 } });

const shared = (max: number) => rawManifest("box", ["work"], { sharing: { mode: "shared", max_concurrent: max } });

describe("shared containers", () => {
  it("serves every user and session from one container with SELU_SHARED=true", async () => {
    const { start, started } = starter(() => ({ resultJson: Buffer.from("{}") }));
    const orch = await double(shared(2), start);
    await orch.call("box__work", {}, { user: "ann", session: "s1" });
    await orch.call("box__work", {}, { user: "bob", session: "s2" });
    expect(started).toHaveLength(1);
    expect(started[0]!.request.env).toEqual({ SELU_CAPABILITY_ID: "box", SELU_SHARED: "true" });
  });

  it("runs at most max_concurrent calls at once; a call beyond it waits for a slot", async () => {
    const raw = await rawCapability("{}", { delayMs: 150 });
    cleanup.push(() => raw.close());
    const orch = await double(shared(2), raw.address);
    const outs = await orch.callBatch(Array.from({ length: 3 }, (_, i) => ({ tool: "box__work", args: {}, caller: { session: `s${i}` } })));
    expect(outs.every((o) => o.ok)).toBe(true);
    expect(raw.peakInFlight).toBe(2);
  });

  it("fails a call that finds no free slot within the wait, in Selu's words (30 s by default)", async () => {
    expect(SHARED_SLOT_WAIT_MS).toBe(30_000);
    const raw = await rawCapability("{}", { delayMs: 400 });
    cleanup.push(() => raw.close());
    const orch = await double(shared(1), raw.address, { sharedSlotWaitMs: 100 });
    const [first, second] = await orch.callBatch([
      { tool: "box__work", args: {} },
      { tool: "box__work", args: {} },
    ]);
    expect(first!.ok).toBe(true);
    expect(second).toEqual({ ok: false, error: "Tool error: Shared capability 'box' is at max concurrency — timed out waiting for a slot" });
  });

  it("retries a call once in a fresh container after a transport failure, so the tool runs twice", async () => {
    const { start, started } = processStarter((n): Record<string, string> => (n === 1 ? { CRASH: "1" } : {}));
    const orch = await double(crasher("shared"), start);
    const out = await orch.call("crasher__work", {});
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect(started).toHaveLength(2);
    expect(started[0]!.exitCode).not.toBe(0);
  });
});

describe("exclusive containers", () => {
  const exclusive = rawManifest("solo", ["work"]);

  it("starts one container per session with SELU_SESSION_ID", async () => {
    const { start, started } = starter(() => ({ resultJson: Buffer.from("{}") }));
    const orch = await double(exclusive, start);
    await orch.call("solo__work", {}, { session: "s1" });
    await orch.call("solo__work", {}, { session: "s1" });
    await orch.call("solo__work", {}, { session: "s2" });
    expect(started.map((s) => s.request.env)).toEqual([
      { SELU_CAPABILITY_ID: "solo", SELU_SESSION_ID: "s1" },
      { SELU_CAPABILITY_ID: "solo", SELU_SESSION_ID: "s2" },
    ]);
  });

  it("leaves a crashed container dead for the rest of its session: no retry, no restart", async () => {
    const { start, started } = processStarter(() => ({ CRASH: "1" }));
    const orch = await double(crasher("exclusive"), start);
    const first = await orch.call("crasher__work", {}, { session: "s1" });
    const second = await orch.call("crasher__work", {}, { session: "s1" });
    expect(!first.ok && first.error).toMatch(/^Tool error: gRPC invoke failed: status: 'The service is currently unavailable'/);
    expect(!second.ok && second.error).toMatch(/^Tool error: gRPC invoke failed: /);
    expect(started).toHaveLength(1);
  });
});

describe("dynamic discovery", () => {
  const dynamic = {
    id: "dyn",
    tool_source: "dynamic" as const,
    tools: [],
    credentials: [
      { name: "ADMIN_KEY", scope: "system" as const },
      { name: "USER_TOKEN", scope: "user" as const },
    ],
  };
  const tools = (names: string[], policy?: string) =>
    JSON.stringify(names.map((name) => ({ name, description: name, input_schema: { type: "object" }, ...(policy ? { recommended_policy: policy } : {}) })));

  it("calls the discovery tool in a fresh container with a discovery session, thread tool-discovery, {} and system credentials only", async () => {
    const { start, started } = starter(() => ({ resultJson: Buffer.from(tools(["a"])) }));
    await double(dynamic, start, { credentials: { dyn: { ADMIN_KEY: "k", USER_TOKEN: "t" } } });
    expect(started).toHaveLength(1);
    const call = started[0]!.raw.calls[0]!;
    expect(call.sessionId).toMatch(/^discovery-dyn-[0-9a-f]{32}$/);
    expect(started[0]!.request.env).toEqual({ SELU_CAPABILITY_ID: "dyn", SELU_SESSION_ID: call.sessionId });
    expect({ tool: call.toolName, thread: call.threadId, args: call.argsJson.toString(), config: call.configJson.toString() }).toEqual({
      tool: "list_tools",
      thread: "tool-discovery",
      args: "{}",
      config: '{"ADMIN_KEY":"k"}',
    });
    expect(started[0]!.stopped).toBe(true);
  });

  it("tries twice, each time in a fresh container", async () => {
    const { start, started } = starter(() => (started.length === 1 ? { error: "warming up" } : { resultJson: Buffer.from(tools(["a"])) }));
    const orch = await double(dynamic, start, { credentials: { dyn: { ADMIN_KEY: "k" } } });
    expect(started).toHaveLength(2);
    expect((await orch.call("dyn__a", {}, { session: "s" })).ok).toBe(false); // USER_TOKEN is required for calls
  });

  it("fails without a call when a required system credential is unset", async () => {
    const { start, started } = starter(() => ({ resultJson: Buffer.from(tools(["a"])) }));
    await expect(double(dynamic, start)).rejects.toThrow("Missing required system credential 'ADMIN_KEY' for capability 'dyn'");
    expect(started).toHaveLength(0);
  });

  it("makes a new tool's recommended policy its global policy (block when absent or invalid); removed tools lose theirs", async () => {
    let answer = JSON.stringify([
      { name: "read", description: "r", input_schema: {}, recommended_policy: "allow" },
      { name: "send", description: "s", input_schema: null, recommended_policy: "sometimes" },
    ]);
    const raw = await rawCapability(() => ({ resultJson: Buffer.from(answer) }));
    cleanup.push(() => raw.close());
    const orch = await double(dynamic, raw.address, { credentials: { dyn: { ADMIN_KEY: "k" } } });
    expect(Object.fromEntries(orch.policies)).toEqual({ dyn__read: "allow", dyn__send: "block" });
    answer = tools(["read", "list"], "ask");
    await orch.discover("dyn");
    expect(Object.fromEntries(orch.policies)).toEqual({ dyn__read: "allow", dyn__list: "ask" });
  });

  it("keeps the previous tools when discovery fails", async () => {
    let answer = tools(["read"]);
    const raw = await rawCapability(() => ({ resultJson: Buffer.from(answer) }));
    cleanup.push(() => raw.close());
    const orch = await double(dynamic, raw.address, { credentials: { dyn: { ADMIN_KEY: "k", USER_TOKEN: "t" } } });
    answer = '{"tools":[]}';
    await expect(orch.discover("dyn")).rejects.toThrow("Discovery payload must be a JSON array of tools");
    expect((await orch.call("dyn__read", {})).ok).toBe(true);
  });
});

describe("Selu's call timer", () => {
  it("sends no grpc-timeout header: the capability sees no deadline", async () => {
    const raw = await rawCapability("{}");
    cleanup.push(() => raw.close());
    const orch = await double(rawManifest("raw", ["t"]), raw.address);
    await orch.call("raw__t", {});
    expect(raw.calls[0]!.deadline).toBe(Infinity);
  });

  it("stops its timer at the response headers: a call whose headers came in time may answer later", async () => {
    const raw = await rawCapability(async (_req, call) => {
      call.sendMetadata(new Metadata());
      await new Promise((r) => setTimeout(r, 300));
      return { resultJson: Buffer.from("{}") };
    });
    cleanup.push(() => raw.close());
    const client = connectCapability(raw.address);
    cleanup.push(() => client.close());
    const request = { toolName: "t", argsJson: Buffer.from("{}"), configJson: Buffer.from("{}"), sessionId: "s", capabilityId: "raw", threadId: "" };
    await expect(invokeCapability(client, request, { deadlineMs: 100 })).resolves.toMatchObject({ error: "" });
  });

  it("cancels a call without response headers when the timer fires, as tonic does (CANCELLED, Timeout expired)", async () => {
    const raw = await rawCapability("{}", { delayMs: 300 });
    cleanup.push(() => raw.close());
    const client = connectCapability(raw.address);
    cleanup.push(() => client.close());
    const request = { toolName: "t", argsJson: Buffer.from("{}"), configJson: Buffer.from("{}"), sessionId: "s", capabilityId: "raw", threadId: "" };
    await expect(invokeCapability(client, request, { deadlineMs: 100 })).rejects.toMatchObject({ code: status.CANCELLED, details: "Timeout expired" });
  });
});
