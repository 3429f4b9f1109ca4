// Issue 12: Selu dispatches `null` of an optional field unchecked, so a model's {"times": null} reaches
// the capability; it reads as absent. A required field's null is still refused, naming the field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCapability } from "./fixtures/capability.ts";
import { call, invoke, start, type Harness } from "./fixtures/client.ts";

let h: Harness;
beforeAll(async () => (h = await start(testCapability)));
afterAll(() => h.close());

describe("null arguments as Selu sends them", () => {
  it("treats null of an optional field as absent", async () => {
    expect(await call(h.client, "echo", { text: "hi", times: null })).toEqual({ text: "hi" });
  });

  it("treats null of a field with a default as absent, so the default applies", async () => {
    const made = await call(h.client, "make_file", { size: 3, filename: null, streamed: null });
    expect(made.artifact.filename).toBe("data.bin");
  });

  it("refuses null for a required field, naming it", async () => {
    const res = await invoke(h.client, { tool: "echo", args: { text: null } });
    expect(res.error).toBe("invalid arguments for echo: text: expected string, received null");
  });
});
