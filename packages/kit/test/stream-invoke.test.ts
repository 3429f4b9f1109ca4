import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCapability } from "./fixtures/capability.ts";
import { start, streamInvoke, type Harness } from "./fixtures/client.ts";

let h: Harness;
beforeAll(async () => (h = await start(testCapability)));
afterAll(() => h.close());

const text = (data: Buffer) => data.toString("utf8");

describe("StreamInvoke", () => {
  it("streams each progress value, then the result with done", async () => {
    const chunks = await streamInvoke(h.client, "slow", { ms: 30, steps: 3 });
    expect(chunks.map((c) => [text(c.data), c.done, c.error])).toEqual([
      ['{"step":1,"of":3}', false, ""],
      ['{"step":2,"of":3}', false, ""],
      ['{"step":3,"of":3}', false, ""],
      ['{"waited":30}', true, ""],
    ]);
  });

  it("runs tools without progress as one final chunk", async () => {
    const chunks = await streamInvoke(h.client, "echo", { text: "hi" });
    expect(chunks.map((c) => [text(c.data), c.done, c.error])).toEqual([['{"text":"hi"}', true, ""]]);
  });

  it("ends with an error chunk on failure", async () => {
    const chunks = await streamInvoke(h.client, "echo", { text: 1 });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.done).toBe(true);
    expect(chunks[0]!.data.byteLength).toBe(0);
    expect(chunks[0]!.error).toBe("invalid arguments for echo: text: expected string, received number");
  });
});
