import { status, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCapability } from "./fixtures/capability.ts";
import { call, invoke, start, type Harness } from "./fixtures/client.ts";

let h: Harness;
beforeAll(async () => (h = await start(testCapability)));
afterAll(() => h.close());

const MiB = 1024 * 1024;
const echoArgs = (totalBytes: number) => {
  const overhead = '{"text":""}'.length;
  return Buffer.from(`{"text":"${"a".repeat(totalBytes - overhead)}"}`);
};

describe("16 MiB message bound", () => {
  it("accepts a request just under 16 MiB", async () => {
    const res = await invoke(h.client, { tool: "refuse", argsJson: Buffer.from(`{"reason":"${"r".repeat(16 * MiB - 200)}"}`) });
    expect(res.error.startsWith("refused: rrrr")).toBe(true);
  });

  it("rejects a request over 16 MiB at the transport with RESOURCE_EXHAUSTED", async () => {
    const err = await invoke(h.client, { tool: "echo", argsJson: echoArgs(16 * MiB + 10) }).catch((e: ServiceError) => e);
    expect((err as ServiceError).code).toBe(status.RESOURCE_EXHAUSTED);
  });

  it("refuses arguments over the tool's bound with the bound in words, before parsing them", async () => {
    const res = await invoke(h.client, { tool: "echo", argsJson: echoArgs(5 * MiB) });
    expect(res.error).toBe("args_json is 5 MiB, over the 4 MiB echo accepts; pass large content as a file (an artifact in attachments) or split the work into several calls");
  });

  it("refuses many small values and deep nesting in arguments with the bound in words", async () => {
    const many = await invoke(h.client, { tool: "echo", argsJson: Buffer.from(`{"text":[${Array(20_000).fill("{}").join(",")}]}`) });
    expect(many.error).toMatch(/^args_json holds more than 10,000 values .* the most echo accepts in one call/);
    const deep = await invoke(h.client, { tool: "echo", argsJson: Buffer.from(`{"text":${"[".repeat(100)}${"]".repeat(100)}}`) });
    expect(deep.error).toBe("args_json nests objects and arrays deeper than 32 levels, the most echo accepts; flatten the arguments");
  });

  it("refuses an oversized config_json without quoting it", async () => {
    const res = await invoke(h.client, { tool: "keyed", config: { API_KEY: "k".repeat(300 * 1024) } });
    expect(res.error).toBe("config_json is 300.0 KiB, over the 256 KiB keyed accepts; check the credential values set for this capability in Selu's settings");
  });

  it("sends a result of exactly 49,152 bytes, Selu's bound", async () => {
    const result = await call(h.client, "big_result", { bytes: 49_152 - '{"filler":""}'.length });
    expect(JSON.stringify(result).length).toBe(49_152);
  });

  it("refuses a result one byte over Selu's bound as a bug of the tool, and logs its reference", async () => {
    const res = await invoke(h.client, { tool: "big_result", args: { bytes: 49_153 - '{"filler":""}'.length } });
    expect(res.error).toMatch(/^big_result made a result of 49,153 bytes, over the 49,152 bytes Selu accepts; this is a bug in the capability, not in your request \(reference [0-9a-f]{8}\)/);
    expect(res.resultJson.byteLength).toBe(0);
  });

  it("shortens a result over the bound with the tool's declared strategy, never splitting a character", async () => {
    const result = await call(h.client, "long_text", { chars: 40_000 });
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(49_152);
    expect(result.shortened).toBe(true);
    expect(result.text).toMatch(/^(ж)+\n\[… shortened to fit the result limit\]$/);
  });

  it("keeps serving after a rejected oversized message", async () => {
    expect(await call(h.client, "echo", { text: "still here" })).toEqual({ text: "still here" });
  });
});
