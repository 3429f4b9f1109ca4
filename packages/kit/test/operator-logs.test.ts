// Issue 13, item 6: what operators read. The listening line names the capability, its version and the
// kit's; every call is one info line with tool, duration and outcome kind (no values); a server that
// can't start says why in one JSON line and exits 1, without a stack trace.
import { fork } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { credentials } from "@grpc/grpc-js";
import { CapabilityClient } from "@selu-catalogue/proto";
import { describe, expect, it } from "vitest";
import kitPackage from "../package.json" with { type: "json" };
import { invoke } from "./fixtures/client.ts";

type Line = Record<string, unknown>;

function entry(env: Record<string, string>) {
  const child = fork(fileURLToPath(new URL("fixtures/entry-server.ts", import.meta.url)), {
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    env: { ...process.env, LOG_LEVEL: "info", HTTPS_PROXY: "", HTTP_PROXY: "", https_proxy: "", http_proxy: "", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const lines = () =>
    stdout
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Line);
  return { child, exit, lines, stderr: () => stderr };
}

describe("operators' logs", () => {
  it("names the capability, its version and the kit's version when listening, and logs every call without values", async () => {
    const server = entry({ PORT: "0", TEST_VERSION: "1.2.3" });
    const { port } = await new Promise<{ port: number }>((resolve) => server.child.once("message", resolve as (m: unknown) => void));
    const client = new CapabilityClient(`127.0.0.1:${port}`, credentials.createInsecure());
    await invoke(client, { tool: "echo", args: { text: "secret-ish value" } });
    await invoke(client, { tool: "echo", args: { text: 3 } });
    await invoke(client, { tool: "refuse", args: { text: "secret-ish value" } });
    await invoke(client, { tool: "nope" });
    client.close();
    server.child.kill("SIGTERM");
    expect(await server.exit).toBe(0);
    const lines = server.lines();
    expect(lines.find((l) => l.msg === "listening")).toMatchObject({
      level: "info",
      capability: "entry-test",
      version: "1.2.3",
      kit: kitPackage.version,
      port,
    });
    const calls = lines.filter((l) => l.msg === "tool call");
    expect(calls.map(({ tool, outcome, level }) => ({ tool, outcome, level }))).toEqual([
      { tool: "echo", outcome: "ok", level: "info" },
      { tool: "echo", outcome: "invalid_arguments", level: "info" },
      { tool: "refuse", outcome: "internal_error", level: "info" },
      { tool: "nope", outcome: "unknown_tool", level: "info" },
    ]);
    expect(calls.every((l) => typeof l.ms === "number")).toBe(true);
    const info = lines
      .filter((l) => l.level === "info")
      .map((l) => JSON.stringify(l))
      .join("\n");
    expect(info).not.toContain("secret-ish");
  });

  it("reports a bad proxy URL in one JSON line and exits 1", async () => {
    const server = entry({ PORT: "0", HTTPS_PROXY: "http://selu:token@[not a host" });
    expect(await server.exit).toBe(1);
    expect(server.stderr()).toBe("");
    const lines = server.lines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error", msg: "cannot start", capability: "entry-test" });
    expect(lines[0]!.error).toMatch(/HTTPS_PROXY/);
    expect(lines[0]!.error).not.toContain("token");
  });

  it("reports a port in use in one JSON line and exits 1", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    const server = entry({ PORT: String(port) });
    expect(await server.exit).toBe(1);
    taken.close();
    expect(server.stderr()).toBe("");
    const lines = server.lines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error", msg: "cannot start" });
    expect(lines[0]!.error).toBe(`cannot listen on 127.0.0.1:${port}: the port is in use`);
  });
});
