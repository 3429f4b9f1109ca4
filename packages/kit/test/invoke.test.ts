import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCapability } from "./fixtures/capability.ts";
import { call, invoke, start, type Harness } from "./fixtures/client.ts";

let h: Harness;
beforeAll(async () => (h = await start(testCapability)));
afterAll(() => h.close());

const errorOf = async (tool: string, args?: unknown, config?: Record<string, unknown>, argsJson?: Buffer) => {
  const res = await invoke(h.client, { tool, args, config, ...(argsJson ? { argsJson } : {}) });
  expect(res.resultJson.byteLength).toBe(0);
  return res.error;
};

describe("Invoke", () => {
  it("runs a tool and returns its result as JSON", async () => {
    expect(await call(h.client, "echo", { text: "hé", times: 2 })).toEqual({ text: "héhé" });
  });

  it("applies schema defaults before the handler runs", async () => {
    const result = await call(h.client, "make_file", { size: 3 });
    expect(result.artifact.filename).toBe("data.bin");
  });

  it("strips Selu's approval keys before validation", async () => {
    const args = { text: "a", _approval_message: "Send?", _approval_message_i18n: { de: "Senden?" } };
    expect(await call(h.client, "echo", args)).toEqual({ text: "a" });
  });

  it("treats empty args_json as an empty object", async () => {
    expect(await errorOf("echo", undefined, {}, Buffer.alloc(0))).toMatch(/^invalid arguments for echo: text: is required \(expected string\)$/);
  });
});

describe("Invoke errors reach InvokeResponse.error", () => {
  it("names the unknown tool and lists the tools there are", async () => {
    const error = await errorOf("ecko", {});
    expect(error).toContain('unknown tool "ecko"');
    expect(error).toContain("echo, make_file, make_files, digest, slow");
  });

  it("reports args_json that is not JSON", async () => {
    expect(await errorOf("echo", undefined, {}, Buffer.from("{text:"))).toMatch(/^args_json is not valid JSON \(/);
  });

  it("reports args_json that is JSON but not an object", async () => {
    expect(await errorOf("echo", undefined, {}, Buffer.from("[1]"))).toBe("args_json must be a JSON object, got an array");
    expect(await errorOf("echo", undefined, {}, Buffer.from("null"))).toBe("args_json must be a JSON object, got null");
  });

  it("reports config_json that is not JSON, without echoing it", async () => {
    const res = await invoke(h.client, { tool: "echo", args: { text: "a" } });
    expect(res.error).toBe("");
    const bad = await new Promise<string>((resolve, reject) =>
      h.client.invoke({ toolName: "echo", argsJson: Buffer.from('{"text":"a"}'), configJson: Buffer.from('{"API_KEY": sk-secret'), sessionId: "", capabilityId: "", threadId: "" }, (err, r) =>
        err ? reject(err) : resolve(r!.error),
      ),
    );
    expect(bad).toMatch(/^config_json is not valid JSON/);
    expect(bad).not.toContain("sk-secret");
  });

  it("names the path and the expectation of each schema violation", async () => {
    const error = await errorOf("echo", { text: 5, times: 9 });
    expect(error).toBe("invalid arguments for echo: text: expected string, received number; times: Too big: expected number to be <=3");
  });

  it("refuses unknown arguments and lists the ones the tool takes", async () => {
    expect(await errorOf("echo", { text: "a", txet: "b" })).toBe('invalid arguments for echo: (arguments): unknown key "txet" (the tool takes: text, times)');
  });

  it("names a missing credential and where to set it", async () => {
    expect(await errorOf("keyed", {})).toBe("missing credential API_KEY: set it in Selu's credentials for the kit-test capability (user scope)");
  });

  it("reads a credential that is set", async () => {
    expect(await call(h.client, "keyed", {}, { API_KEY: "abcd1234" })).toEqual({ key_length: 8 });
  });

  it("refuses a credential that is not a string without showing it", async () => {
    const error = await errorOf("keyed", {}, { API_KEY: { nested: "sk-live-123" } });
    expect(error).toBe("config_json: credential API_KEY must be a string, got object");
  });

  it("passes a ToolError's message through as is", async () => {
    expect(await errorOf("refuse", { reason: "no" })).toBe("refused: no");
  });

  it("hides an unexpected exception behind a reference: no message, stack or secret", async () => {
    const error = await errorOf("crash", {}, { API_KEY: "sk-live-supersecret" });
    expect(error).toMatch(/^crash failed because of an internal error \(reference [0-9a-f]{8}\); the capability's logs have the details$/);
    expect(error).not.toContain("supersecret");
    expect(error).not.toContain("at ");
  });

  it("stops a tool at its timeout even when the tool ignores its signal", async () => {
    const started = Date.now();
    expect(await errorOf("stubborn", {})).toBe("stubborn timed out after 300 ms");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("reports the capability's tool timeout when a tool overruns it", async () => {
    expect(await errorOf("slow", { ms: 5_000 })).toBe("slow timed out after 2 s");
  });

  it("refuses a result that would not fit in a gRPC message, as over Selu's result bound", async () => {
    expect(await errorOf("big_result", { bytes: 16 * 1024 * 1024 })).toMatch(/^big_result made a result of 16,777,229 bytes, over the 49,152 bytes Selu accepts; this is a bug in the capability/);
  });
});
