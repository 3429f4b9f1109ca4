// A burst of calls must not lose a call's input: other calls' outputs evict what was already used (inputs
// read, outputs downloaded) before anything a running call still needs, and never a running call's
// attachments; when only those are left, the store refuses in words instead of dropping one.
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachments, defineCapability, tool } from "../src/index.ts";
import { pattern, sha256 } from "./fixtures/capability.ts";
import { call, download, invoke, start, upload, type Harness } from "./fixtures/client.ts";

const MiB = 1024 * 1024;
let gate = Promise.withResolvers<void>();
let waiting = 0;

const capability = defineCapability({
  id: "artifact-eviction",
  limits: { maxArtifactBytes: 4 * MiB, artifactBudgetBytes: 8 * MiB },
  tools: {
    digest_later: tool({
      description: "Waits for the test, then reads its attachment and returns its SHA-256",
      input: z.object({ attachments: attachments({ description: "One file", min: 1, max: 1 }) }),
      policy: "allow",
      async run(args, ctx) {
        waiting++;
        await gate.promise;
        const file = ctx.artifacts.read(args.attachments[0]!, "attachments[0]");
        return { sha256: sha256(file.bytes()) };
      },
    }),
    make_file: tool({
      description: "Makes a file of the given size",
      input: z.object({ size: z.number().int().min(1) }),
      policy: "allow",
      async run({ size }, ctx) {
        return { artifact: await ctx.artifacts.put(pattern(size), { filename: "f.bin", mimeType: "application/octet-stream" }) };
      },
    }),
  },
});

let h: Harness;
beforeAll(async () => (h = await start(capability)));
afterAll(() => h.close());

async function uploaded(size: number): Promise<string> {
  const res = await upload(h.client, pattern(size), "in.bin", "application/octet-stream");
  expect(res.error).toBe("");
  return res.capabilityArtifactId;
}

function digestLater(id: string) {
  return invoke(h.client, { tool: "digest_later", args: { attachments: [{ capability_artifact_id: id, filename: "in.bin" }] } });
}

async function untilWaiting(n: number): Promise<void> {
  for (const started = Date.now(); waiting < n; await new Promise((r) => setTimeout(r, 5))) {
    if (Date.now() - started > 5_000) throw new Error(`${n} calls did not start`);
  }
}

describe("artifact eviction in a burst", () => {
  it("keeps a running call's unread input while other calls store and download outputs past the budget", async () => {
    gate = Promise.withResolvers();
    waiting = 0;
    const input = await uploaded(3 * MiB);
    const pending = digestLater(input);
    await untilWaiting(1);
    // 3 MiB of outputs, each downloaded, three times over: 9 MiB through an 8 MiB store beside the input.
    for (let i = 0; i < 3; i++) {
      const made = await call(h.client, "make_file", { size: 3 * MiB });
      const chunks = await download(h.client, made.artifact.capability_artifact_id);
      expect(Buffer.concat(chunks.map((c) => c.data)).byteLength).toBe(3 * MiB);
    }
    gate.resolve();
    const res = await pending;
    expect(res.error).toBe("");
    expect(JSON.parse(res.resultJson.toString()).sha256).toBe(sha256(pattern(3 * MiB)));
  });

  it("refuses a new output in words when running calls' attachments hold the store, and takes it once they end", async () => {
    gate = Promise.withResolvers();
    waiting = 0;
    const inputs = [await uploaded(4 * MiB), await uploaded(4 * MiB)];
    const pending = inputs.map(digestLater);
    await untilWaiting(2);
    await expect(call(h.client, "make_file", { size: MiB })).rejects.toThrow(
      "the capability's artifact memory (8 MiB) is full with the files of calls in progress; send fewer or smaller files at once, or try again shortly",
    );
    gate.resolve();
    for (const res of await Promise.all(pending)) expect(res.error).toBe("");
    expect((await call(h.client, "make_file", { size: MiB })).artifact.capability_artifact_id).toMatch(/^[0-9a-f]{32}$/);
  });
  it("tells a late download that its file was dropped to make room, not that the id is unknown", async () => {
    const first = await call(h.client, "make_file", { size: 4 * MiB });
    const id = first.artifact.capability_artifact_id;
    expect(Buffer.concat((await download(h.client, id)).map((c) => c.data)).byteLength).toBe(4 * MiB);
    // Two more 4 MiB outputs, downloaded too, through the 8 MiB store: the oldest downloaded one goes first.
    for (let i = 0; i < 2; i++) await download(h.client, (await call(h.client, "make_file", { size: 4 * MiB })).artifact.capability_artifact_id);
    const again = await download(h.client, id);
    expect(again.at(-1)?.error).toBe(`artifact "${id}" was dropped from the capability's memory, which files of calls running at once had filled; make it again`);
    const unknown = await download(h.client, "f".repeat(32));
    expect(unknown.at(-1)?.error).toMatch(/^unknown or expired artifact id/);
  });
});
