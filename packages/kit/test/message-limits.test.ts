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

  it("sends a result just under 16 MiB", async () => {
    const result = await call(h.client, "big_result", { bytes: 16 * MiB - 2048 });
    expect(result.filler.length).toBe(16 * MiB - 2048);
  });

  it("keeps serving after a rejected oversized message", async () => {
    expect(await call(h.client, "echo", { text: "still here" })).toEqual({ text: "still here" });
  });
});
