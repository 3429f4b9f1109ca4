import { invokeTool, Runtime, silentLogger } from "@selu-catalogue/kit";
import { describe, expect, it } from "vitest";
import capability from "./capability.js";

// In-process, without gRPC: the same dispatcher the server uses (the end-to-end tests are in test/).
const runtime = new Runtime(capability, { logger: silentLogger });
const call = (tool: string, args: unknown) =>
  invokeTool(runtime, { toolName: tool, argsJson: Buffer.from(JSON.stringify(args)), configJson: Buffer.alloc(0), sessionId: "s", threadId: "", capabilityId: "catalogue-example" });

describe("example capability in process", () => {
  it("advertises file inputs to the model as artifact_id", () => {
    const describeFiles = capability.describe().tools.find((t) => t.name === "describe_files")!;
    expect(JSON.stringify(describeFiles.input_schema)).toContain('"required":["artifact_id"]');
  });

  it("refuses text over its 10,000-character bound, naming the field", async () => {
    const outcome = await call("echo", { text: "x".repeat(10_001) });
    expect(outcome).toEqual({ ok: false, error: "invalid arguments for echo: text: Too big: expected string to have <=10000 characters" });
  });

  it("stores a text file as an output artifact", async () => {
    const outcome = await call("make_text_file", { filename: "n.txt", text: "hi" });
    if (!outcome.ok) throw new Error(outcome.error);
    const result = JSON.parse(outcome.resultJson.toString());
    expect(runtime.store.get(result.artifact.capability_artifact_id)?.size).toBe(2);
  });
});
