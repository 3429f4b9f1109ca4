// The MCP Inspector's CLI (issue 19), as people check an MCP server by hand, lists and calls the tools of
// one capability served from its production entrypoint over stdio.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startCommand } from "@selu-catalogue/testkit/mcp";
import { describe, expect, it } from "vitest";
import { capabilityDir } from "./src/mcp-world.ts";

const INSPECTOR = fileURLToPath(new URL("node_modules/.bin/mcp-inspector", import.meta.url));
const run = promisify(execFile);

/** The Inspector's JSON answer on stdout (for a tool error it also exits non-zero). */
async function inspect(...args: string[]): Promise<Record<string, unknown>> {
  const dir = capabilityDir("catalogue-example");
  const stdout = await run(INSPECTOR, ["--cli", ...startCommand(dir), "--mcp", "stdio", ...args], { cwd: dir, timeout: 30_000 }).then(
    (r) => r.stdout,
    (err: { stdout?: string }) => err.stdout ?? "",
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("the MCP Inspector CLI", () => {
  it("lists the example capability's tools", async () => {
    const { tools } = (await inspect("--method", "tools/list")) as { tools: { name: string }[] };
    expect(tools.map((t) => t.name)).toEqual(["echo", "make_text_file", "describe_files"]);
  });

  it("calls a tool, and shows a bad call as a tool error", async () => {
    const ok = (await inspect("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=inspected")) as { content: { text: string }[]; isError?: boolean };
    expect(ok.isError ?? false).toBe(false);
    expect(JSON.parse(ok.content[0]!.text)).toMatchObject({ text: "inspected" });
    const bad = await inspect("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "txt=typo");
    expect(bad).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining('unknown key "txt"') }] });
  });
});
