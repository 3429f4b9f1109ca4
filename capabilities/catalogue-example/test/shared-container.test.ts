// The example capability as Selu runs a `sharing: shared` capability: one container for every user, at
// most max_concurrent calls at once, the next caller waiting for a slot. What the user sees for
// make_text_file: the model's own answer with the file attached (the tool is not terminal_on_success).
import { fileURLToPath } from "node:url";
import { loadManifest } from "@selu-catalogue/manifest";
import { capabilityStarter, Orchestrator, type ManifestView } from "@selu-catalogue/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const dir = fileURLToPath(new URL("..", import.meta.url));
const manifest = loadManifest(`${dir}/manifest.yaml`).manifest!;
const id = manifest.id;
const maxConcurrent = manifest.sharing.max_concurrent;
const starter = capabilityStarter(dir, { env: { LOG_LEVEL: "warn" } });

let orch: Orchestrator;
beforeAll(() => {
  orch = new Orchestrator();
  return orch.install(manifest as ManifestView, starter.start);
});
afterAll(async () => {
  await orch.close();
  await starter.stopAll();
});

describe(`${id} at max_concurrent + 1 through the orchestrator double`, () => {
  it(`answers max_concurrent + 1 (${maxConcurrent + 1}) calls from different users in one shared container, at most ${maxConcurrent} at once`, async () => {
    const calls = Array.from({ length: maxConcurrent + 1 }, (_, i) => ({
      tool: `${id}__make_text_file`,
      args: { filename: `n${i}.txt`, text: `note ${i}` },
      caller: { user: `user-${i}`, session: `s-${i}` },
    }));
    const outcomes = await orch.callBatch(calls);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(starter.started).toHaveLength(1);
    expect(starter.started[0]!.request.env).toEqual({ SELU_CAPABILITY_ID: id, SELU_SHARED: "true" });
    expect(orch.sharedSlots(id)).toMatchObject({ peak: maxConcurrent, busy: 0 });
  });

  it("make_text_file leaves the answer to the model and attaches the file, instead of showing the user raw JSON", async () => {
    orch.newTurn();
    const out = await orch.call(`${id}__make_text_file`, { filename: "notes.txt", text: "hello" });
    expect(out.ok && out.reply).toBeUndefined();
    expect(out.ok && out.text).toMatch(/^\{"artifact":\{"artifact_id":"[0-9a-f-]{36}","filename":"notes.txt","mime_type":"text\/plain; charset=utf-8","size_bytes":5\},"ok":true,"size_bytes":5\}$/);
  });
});
