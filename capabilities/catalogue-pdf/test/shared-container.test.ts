// The pdf capability as Selu runs a `sharing: shared` capability: one container for every user, at most
// max_concurrent calls at once, the next caller waiting up to 30 s for a slot. What the user sees: the
// model's own answer with the PDF attached, never the raw result (no tool is terminal_on_success).
import { fileURLToPath } from "node:url";
import { loadManifest } from "@selu-catalogue/manifest";
import { capabilityStarter, Orchestrator, type ManifestView } from "@selu-catalogue/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const dir = fileURLToPath(new URL("..", import.meta.url));
const manifest = loadManifest(`${dir}/manifest.yaml`).manifest!;
const id = manifest.id;
const maxConcurrent = manifest.sharing.max_concurrent;
const doc = (n: number) => ({
  title: `Report ${n}`,
  sections: Array.from({ length: 6 }, (_, s) => ({ heading: `Part ${s}`, content: [{ type: "paragraph", text: "The reef is a city built by animals. ".repeat(120) }] })),
});

const starter = capabilityStarter(dir, { env: { LOG_LEVEL: "warn" } });
afterAll(() => starter.stopAll());

describe(`${id} at max_concurrent + 1 through the orchestrator double`, () => {
  let orch: Orchestrator;
  beforeAll(() => {
    orch = new Orchestrator();
    return orch.install(manifest as ManifestView, starter.start);
  });
  afterAll(() => orch.close());

  it("is declared shared, so Selu gives every user the same container", () => {
    expect(manifest.sharing.mode).toBe("shared");
  });

  it(`answers max_concurrent + 1 (${maxConcurrent + 1}) calls from different users in one container, at most ${maxConcurrent} at once`, async () => {
    const calls = Array.from({ length: maxConcurrent + 1 }, (_, i) => ({ tool: `${id}__create_pdf_document`, args: doc(i), caller: { user: `user-${i}`, session: `session-${i}` } }));
    const outcomes = await orch.callBatch(calls);
    expect(outcomes.map((o) => (o.ok ? "ok" : o.error))).toEqual(calls.map(() => "ok"));
    expect(starter.started).toHaveLength(1);
    expect(starter.started[0]!.request.env).toEqual({ SELU_CAPABILITY_ID: id, SELU_SHARED: "true" });
    expect(orch.sharedSlots(id)).toMatchObject({ peak: maxConcurrent, busy: 0 });
  }, 120_000);

  it("leaves the answer to the model and attaches the PDF, instead of showing the user raw JSON", async () => {
    orch.newTurn();
    const out = await orch.call(`${id}__create_pdf_document`, doc(99));
    expect(out.ok && out.reply).toBeUndefined();
    expect(orch.transcript.at(-1)).toMatchObject({ kind: "result" });
  }, 60_000);
});

describe(`${id}: the call beyond max_concurrent that finds no slot in time`, () => {
  it("fails with Selu's words instead of reaching the container", async () => {
    const orch = new Orchestrator({ sharedSlotWaitMs: 20 });
    try {
      await orch.install(manifest as ManifestView, starter.start);
      const outcomes = await orch.callBatch(Array.from({ length: maxConcurrent + 1 }, (_, i) => ({ tool: `${id}__create_pdf_document`, args: doc(i) })));
      const failed = outcomes.filter((o) => !o.ok);
      expect(failed).toEqual([{ ok: false, error: `Tool error: Shared capability '${id}' is at max concurrency — timed out waiting for a slot` }]);
    } finally {
      await orch.close();
    }
  }, 120_000);
});
