import { status } from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { Orchestrator, SeluFinding } from "../src/orchestrator/index.js";
import { rawCapability, rawManifest, type RawAnswer, type RawCapability } from "./fixtures/raw-server.js";

const open: { raw: RawCapability; orch: Orchestrator }[] = [];
afterEach(async () => {
  for (const { raw, orch } of open.splice(0)) {
    await orch.close();
    raw.close();
  }
});

/** An orchestrator double with one raw capability `raw` whose tool `t` answers `answer`. */
async function world(answer: string | (() => RawAnswer), options: { strict?: boolean } = {}) {
  const raw = await rawCapability(typeof answer === "string" ? answer : () => answer());
  const orch = new Orchestrator(options);
  await orch.install(rawManifest("raw", ["t"]), raw.address);
  open.push({ raw, orch });
  return { raw, orch };
}

const ascii = (bytes: number) => JSON.stringify({ text: "a".repeat(bytes - 11) });

describe("result size (Selu cuts anything over 49,152 UTF-8 bytes)", () => {
  it("the double fails a result over 49,152 bytes, naming the tool and the size", async () => {
    const { orch } = await world(ascii(49_153));
    const failure = orch.call("raw__t", {});
    await expect(failure).rejects.toBeInstanceOf(SeluFinding);
    await expect(failure).rejects.toThrow("raw__t returned a result of 49,153 UTF-8 bytes; Selu cuts any result over 49,152 bytes");
  });

  it("passes a result of exactly 49,152 bytes", async () => {
    const { orch } = await world(ascii(49_152));
    const out = await orch.call("raw__t", {});
    expect(out.ok && Buffer.byteLength(out.text)).toBe(49_152);
  });

  it("counts UTF-8 bytes, not characters", async () => {
    const { orch } = await world(JSON.stringify({ text: "é".repeat(25_000) }));
    await expect(orch.call("raw__t", {})).rejects.toThrow(/50,011 UTF-8 bytes/);
  });

  it("without strict, cuts the result at 49,152 bytes and appends Selu's marker, as the model would see it", async () => {
    const { orch } = await world(ascii(60_000), { strict: false });
    const out = await orch.call("raw__t", {});
    if (!out.ok) throw new Error(out.error);
    expect(out.text.endsWith("\n\n[… truncated to fit context window]")).toBe(true);
    expect(Buffer.byteLength(out.text)).toBe(49_152 + Buffer.byteLength("\n\n[… truncated to fit context window]"));
    expect(orch.findings).toHaveLength(1);
  });

  it("fails even without strict when the cut falls inside a multi-byte character (Selu's turn panics)", async () => {
    // {"text":" is 9 bytes, so byte 49,152 is the second byte of an "é".
    const { orch } = await world(JSON.stringify({ text: "é".repeat(30_000) }), { strict: false });
    await expect(orch.call("raw__t", {})).rejects.toThrow(/inside a multi-byte character/);
  });
});

describe("error wording, exactly as the model sees it", () => {
  it("shows InvokeResponse.error as Tool error: Capability '<id>' tool '<tool>' returned error: <error>", async () => {
    const { orch } = await world(() => ({ error: "the page range 9-3 runs backwards" }));
    expect(await orch.call("raw__t", {})).toEqual({
      ok: false,
      error: "Tool error: Capability 'raw' tool 't' returned error: the page range 9-3 runs backwards",
      capabilityError: "the page range 9-3 runs backwards",
    });
  });

  it("returns a gRPC status as the outcome Tool error: gRPC invoke failed: …, never as a thrown error", async () => {
    const { orch } = await world(() => ({ status: { code: status.RESOURCE_EXHAUSTED, details: "too busy" } }));
    const out = await orch.call("raw__t", {});
    expect(out.ok).toBe(false);
    expect(!out.ok && out.error).toBe("Tool error: gRPC invoke failed: status: 'Some resource has been exhausted', self: \"too busy\"");
  });

  it("returns an unreachable capability as a gRPC status outcome", async () => {
    const { raw, orch } = await world("{}");
    raw.close();
    const out = await orch.call("raw__t", {});
    expect(!out.ok && out.error).toMatch(/^Tool error: gRPC invoke failed: status: 'The service is currently unavailable'/);
  });
});

describe("result_json as text", () => {
  it("refuses result_json that is not UTF-8", async () => {
    const { orch } = await world(() => ({ resultJson: Buffer.from([0x7b, 0xff, 0x7d]) }));
    expect(await orch.call("raw__t", {})).toEqual({ ok: false, error: "Tool error: Capability returned non-UTF8 result_json" });
  });

  it("passes text that is not JSON through as text", async () => {
    const { orch } = await world("Done: 3 pages.");
    expect(await orch.call("raw__t", {})).toEqual({ ok: true, text: "Done: 3 pages.", result: { result: "Done: 3 pages." } });
  });

  it("passes the capability's JSON text through unchanged when no artifact was rewritten", async () => {
    const { orch } = await world('{ "b": 1.50,\n  "a": [1, 2] }');
    const out = await orch.call("raw__t", {});
    expect(out.ok && out.text).toBe('{ "b": 1.50,\n  "a": [1, 2] }');
  });
});
