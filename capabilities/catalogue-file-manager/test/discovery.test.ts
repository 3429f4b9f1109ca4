// Discovery as Selu runs it (contract section 5), through the orchestrator double: which tools each
// system setting offers, and that a tool the configuration does not offer is refused when called anyway.
import { connectCapability, invokeCapability } from "@selu-catalogue/testkit/orchestrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READ_TOOLS, REMOTE_READ_TOOLS, REMOTE_WRITE_TOOLS, WRITE_TOOLS } from "../src/capability.js";
import { DAV_SETTINGS, ID, startWorld, type World } from "./harness.js";

let world: World;
beforeAll(async () => {
  world = await startWorld();
}, 30_000);
afterAll(() => world?.close());

const names = async (settings: Record<string, string>) => (await (await world.orchestrator(settings)).discover(ID)).map((t) => t.name);

/** Invokes straight over gRPC, as Selu would if its stored tool list were stale. */
async function invokeDirect(tool: string, args: unknown, config: Record<string, string>) {
  const client = connectCapability(world.proc.address);
  try {
    return await invokeCapability(client, {
      toolName: tool,
      argsJson: Buffer.from(JSON.stringify(args)),
      configJson: Buffer.from(JSON.stringify(config)),
      sessionId: "7c1f0e1e-2b7a-4f57-9d53-0e0f5a4bb001",
      capabilityId: ID,
      threadId: "",
    });
  } finally {
    client.close();
  }
}

describe("discovery", () => {
  it("offers the read and write tools without settings, and no remote tools", async () => {
    expect(await names({})).toEqual([...READ_TOOLS, ...WRITE_TOOLS]);
  });

  it("offers only the read tools when the workspace is read-only", async () => {
    expect(await names({ WORKSPACE_READ_ONLY: "true" })).toEqual([...READ_TOOLS]);
  });

  it("adds the remote tools when a WebDAV store is configured", async () => {
    expect(await names(DAV_SETTINGS)).toEqual([...READ_TOOLS, ...WRITE_TOOLS, ...REMOTE_READ_TOOLS, ...REMOTE_WRITE_TOOLS]);
  });

  it("offers only remote_list of the remote tools when read-only with a store", async () => {
    expect(await names({ ...DAV_SETTINGS, WORKSPACE_READ_ONLY: "yes" })).toEqual([...READ_TOOLS, ...REMOTE_READ_TOOLS]);
  });

  it("answers a top-level array with allow for reads and ask for writes, and no terminal flag", async () => {
    const res = await invokeDirect("list_tools", {}, DAV_SETTINGS);
    const tools = JSON.parse(res.resultJson.toString()) as { name: string; recommended_policy: string }[];
    expect(Array.isArray(tools)).toBe(true);
    for (const t of tools) {
      expect(Object.keys(t).sort()).toEqual(["description", "input_schema", "name", "recommended_policy"]);
      const reads = (READ_TOOLS as readonly string[]).concat(REMOTE_READ_TOOLS);
      expect(t.recommended_policy, t.name).toBe(reads.includes(t.name) ? "allow" : "ask");
    }
  });

  it("refuses a write tool called anyway in read-only mode, and writes nothing", async () => {
    const res = await invokeDirect("write_file", { path: "sneaky.txt", content: "x" }, { WORKSPACE_READ_ONLY: "true" });
    expect(res.error).toBe(`tool write_file is not offered in this configuration: the workspace is read-only (WORKSPACE_READ_ONLY is set by an administrator); it offers: ${READ_TOOLS.join(", ")}`);
    const listed = await invokeDirect("list_directory", {}, { WORKSPACE_READ_ONLY: "true" });
    expect(JSON.parse(listed.resultJson.toString()).entries).toEqual([]);
  });

  it("refuses a remote tool once the store is removed", async () => {
    const res = await invokeDirect("remote_list", {}, {});
    expect(res.error).toMatch(/^tool remote_list is not offered in this configuration: no remote store is configured \(an administrator sets WEBDAV_URL/);
  });

  it("lets the orchestrator double hide what discovery did not offer", async () => {
    const o = await world.orchestrator({ WORKSPACE_READ_ONLY: "true" });
    const outcome = await o.call(`${ID}__delete`, { path: "x" });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).toBe(`The tool '${ID}__delete' is not configured in your security policy. Ask the user to update their tool permissions for this agent.`);
  });
});
