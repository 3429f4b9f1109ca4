import { defineCapability, serve, silentLogger, ToolError, tool, type ServedCapability } from "@selu-catalogue/kit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { formatTranscriptEntry, Orchestrator } from "../src/orchestrator/index.js";

// A produce-and-done tool (terminal) whose text is written for the user, and an intermediate one.
const studio = defineCapability({
  id: "studio",
  tools: {
    draft: tool({
      description: "Writes an intermediate file",
      input: z.object({ text: z.string() }),
      policy: "allow",
      async run({ text }, ctx) {
        return { artifact: await ctx.artifacts.put(Buffer.from(text), { filename: "draft.txt", mimeType: "text/plain" }) };
      },
    }),
    publish: tool({
      description: "Publishes the final file",
      input: z.object({ text: z.string(), fail: z.boolean().optional() }),
      policy: "allow",
      terminalOnSuccess: true,
      async run({ text, fail }, ctx) {
        if (fail) throw new ToolError("the printer is out of paper");
        return { artifact: await ctx.artifacts.put(Buffer.from(text), { filename: "final.txt", mimeType: "text/plain" }), message: "Here is your file." };
      },
    }),
  },
});

let server: ServedCapability;
let orch: Orchestrator;
beforeAll(async () => {
  server = await serve(studio, { host: "127.0.0.1", port: 0, logger: silentLogger, handleSignals: false });
  const d = studio.describe();
  orch = new Orchestrator();
  await orch.install({ id: d.id, tools: d.tools, credentials: d.credentials }, `127.0.0.1:${server.port}`);
});
afterAll(async () => {
  await orch.close();
  await server.close(100);
});
beforeEach(() => orch.newTurn());

describe("terminal_on_success, as Selu runs it", () => {
  it("makes the rewritten result the user's final reply, verbatim, with every artifact of the turn attached", async () => {
    const draft = await orch.call("studio__draft", { text: "v1" });
    const out = await orch.call("studio__publish", { text: "v2" });
    if (!draft.ok || !out.ok || !out.reply) throw new Error("expected a terminal reply");
    const final = out.result.artifact as { artifact_id: string };
    expect(out.reply.text).toBe(out.text);
    expect(out.reply.text).toBe(`{"artifact":{"artifact_id":"${final.artifact_id}","filename":"final.txt","mime_type":"text/plain","size_bytes":2},"message":"Here is your file."}`);
    expect(out.reply.attachments.map((a) => a.filename)).toEqual(["draft.txt", "final.txt"]);
  });

  it("gives the model no turn after it: the transcript ends with the user's reply, not a result for the model", async () => {
    const before = orch.transcript.length;
    const out = await orch.call("studio__publish", { text: "v3" });
    const entries = orch.transcript.slice(before);
    expect(entries.at(-1)).toMatchObject({ kind: "reply", tool: "studio__publish", text: out.ok && out.text });
    expect(entries.some((e) => e.kind === "result")).toBe(false);
    expect(formatTranscriptEntry(entries.at(-1)!)).toContain(`the user reads (verbatim, with 1 attachment: final.txt)\n   ${out.ok && out.text}`);
  });

  it("ends the turn with a terminal tool's error too: the user reads Tool error: …, the model gets no retry", async () => {
    const out = await orch.call("studio__publish", { text: "v4", fail: true });
    const error = "Tool error: Capability 'studio' tool 'publish' returned error: the printer is out of paper";
    expect(out).toEqual({ ok: false, error, capabilityError: "the printer is out of paper", reply: { text: error, attachments: [] } });
    expect(orch.transcript.at(-1)).toMatchObject({ kind: "reply", text: error });
  });

  it("drops terminal mode in a batch of more than one call: the model sees every result", async () => {
    const outs = await orch.callBatch([
      { tool: "studio__publish", args: { text: "a" } },
      { tool: "studio__draft", args: { text: "b" } },
    ]);
    expect(outs.every((o) => o.ok && o.reply === undefined)).toBe(true);
    expect(
      orch.transcript
        .filter((e) => e.kind === "result")
        .slice(-2)
        .map((e) => e.tool)
        .sort(),
    ).toEqual(["studio__draft", "studio__publish"]);
    expect(orch.transcript.slice(-4).some((e) => e.kind === "reply")).toBe(false);
  });

  it("does not end the turn when the tool loop refuses the arguments before dispatch", async () => {
    const out = await orch.call("studio__publish", { text: 5 });
    expect(out).toEqual({
      ok: false,
      error: "Tool argument validation failed for 'studio__publish': $.text expected string. Regenerate this tool call with a valid argument shape.",
    });
  });

  it("attaches only the artifacts of the current turn", async () => {
    await orch.call("studio__draft", { text: "old" });
    orch.newTurn();
    const out = await orch.call("studio__publish", { text: "new" });
    expect(out.reply?.attachments.map((a) => a.filename)).toEqual(["final.txt"]);
  });
});
