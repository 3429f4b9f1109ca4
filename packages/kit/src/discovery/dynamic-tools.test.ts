// Dynamic discovery in process, through the same dispatcher the gRPC server uses: the answer's shape
// (contract section 5), the configuration it depends on, and the refusal of tools it does not offer.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineCapability } from "../capability.js";
import { tool } from "../tool.js";
import { silentLogger } from "../log.js";
import { invokeTool } from "../runtime/invoke.js";
import { Runtime } from "../runtime/runtime.js";

const credentials = {
  READ_ONLY: { scope: "system", required: false, description: "true makes the store read-only" },
  REMOTE_URL: { scope: "system", required: false, description: "A remote store" },
  USER_TOKEN: { scope: "user", required: false, description: "Never seen by discovery" },
} as const;

const capability = defineCapability({
  id: "dyn",
  credentials,
  tools: ({ tool }) => ({
    read: tool({ description: "Reads", input: z.object({ path: z.string() }), policy: "allow", run: ({ path }) => ({ path }) }),
    write: tool({ description: "Writes", input: z.object({ path: z.string() }), policy: "ask", run: ({ path }) => ({ wrote: path }) }),
    remote: tool({ description: "Goes out", input: z.object({}), policy: "ask", run: () => ({ ok: true }) }),
  }),
  discovery: {
    offer(config) {
      const names = ["read"];
      if (config.READ_ONLY !== "true") names.push("write");
      if (config.REMOTE_URL) names.push("remote");
      return names;
    },
    refusal: (name, config) => (name === "write" && config.READ_ONLY === "true" ? "the store is read-only (READ_ONLY is true)" : undefined),
  },
});

const runtime = new Runtime(capability, { logger: silentLogger });
const call = async (toolName: string, args: unknown, config: Record<string, unknown> = {}) => {
  const outcome = await invokeTool(runtime, {
    toolName,
    argsJson: Buffer.from(JSON.stringify(args)),
    configJson: Buffer.from(JSON.stringify(config)),
    sessionId: "discovery-dyn-0123456789abcdef0123456789abcdef",
    threadId: "tool-discovery",
    capabilityId: "dyn",
  });
  return outcome.ok ? { result: JSON.parse(outcome.resultJson.toString()) as unknown } : { error: outcome.error };
};

describe("dynamic discovery", () => {
  it("answers list_tools with a top-level array of name, description, input_schema and recommended_policy", async () => {
    const { result } = await call("list_tools", {});
    expect(result).toEqual([
      { name: "read", description: "Reads", input_schema: capability.describe().tools[0]!.input_schema, recommended_policy: "allow" },
      { name: "write", description: "Writes", input_schema: capability.describe().tools[1]!.input_schema, recommended_policy: "ask" },
    ]);
  });

  it("offers what the system configuration enables, and ignores user-scoped credentials", async () => {
    const names = async (config: Record<string, string>) => ((await call("list_tools", {}, config)).result as { name: string }[]).map((t) => t.name);
    expect(await names({ READ_ONLY: "true" })).toEqual(["read"]);
    expect(await names({ REMOTE_URL: "https://dav.example" })).toEqual(["read", "write", "remote"]);
    expect(await names({ USER_TOKEN: "true", READ_ONLY: "" })).toEqual(["read", "write"]);
  });

  it("refuses a tool the configuration does not offer, saying why and what it offers", async () => {
    expect(await call("write", { path: "a" }, { READ_ONLY: "true" })).toEqual({
      error: "tool write is not offered in this configuration: the store is read-only (READ_ONLY is true); it offers: read",
    });
    expect(await call("remote", {}, {})).toEqual({ error: "tool remote is not offered in this configuration; it offers: read, write" });
  });

  it("runs an offered tool as usual and names offered tools for an unknown one", async () => {
    expect(await call("write", { path: "a" })).toEqual({ result: { wrote: "a" } });
    expect(await call("nope", {}, { READ_ONLY: "true" })).toEqual({ error: 'unknown tool "nope"; this capability offers: read' });
  });

  it("describes itself as dynamic, listing every tool it can offer", () => {
    const described = capability.describe();
    expect(described).toMatchObject({ tool_source: "dynamic", discovery_tool_name: "list_tools" });
    expect(described.tools.map((t) => t.name)).toEqual(["read", "write", "remote"]);
  });

  it("refuses a malformed config_json without quoting it", async () => {
    expect(await call("read", { path: "a" }, '{"READ_ONLY": "sec' as never)).toMatchObject({ error: expect.stringMatching(/config_json/) });
  });

  it("turns a failing discovery function into an internal error with a reference", async () => {
    const broken = defineCapability({
      id: "broken",
      tools: { a: tool({ description: "A", input: z.object({}), policy: "allow", run: () => ({}) }) },
      discovery: { offer: () => ["missing"] },
    });
    const outcome = await invokeTool(new Runtime(broken, { logger: silentLogger }), {
      toolName: "list_tools",
      argsJson: Buffer.from("{}"),
      configJson: Buffer.from("{}"),
      sessionId: "s",
      threadId: "",
      capabilityId: "broken",
    });
    expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/internal error \(reference [0-9a-f]{8}\)/) });
  });

  it("is refused at definition when a tool takes the discovery tool's name or is terminal", () => {
    const def =
      (name: string, terminalOnSuccess = false) =>
      () =>
        defineCapability({ id: "x", tools: { [name]: tool({ description: "d", input: z.object({}), policy: "allow", terminalOnSuccess, run: () => ({}) }) }, discovery: { offer: () => [] } });
    expect(def("list_tools")).toThrow(/tool list_tools has the discovery tool's name/);
    expect(def("make", true)).toThrow(/terminalOnSuccess, which Selu does not allow for discovered tools/);
  });
});
