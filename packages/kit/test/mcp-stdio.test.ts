import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpInputSchema } from "../src/mcp/tools.ts";
import { sha256 } from "./fixtures/capability.ts";
import { mcpTestCapability as testCapability, pattern } from "./fixtures/mcp-capability.ts";

const ENTRY = fileURLToPath(new URL("fixtures/mcp-entry.ts", import.meta.url));

async function connect(env: Record<string, string> = {}, args: string[] = []): Promise<{ client: Client; logs: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [ENTRY, "--mcp", "stdio", ...args], env: { PATH: process.env.PATH ?? "", ...env }, stderr: "pipe" });
  let logs = "";
  transport.stderr?.on("data", (d: Buffer) => (logs += d.toString()));
  const client = new Client({ name: "kit-tests", version: "0.0.0" });
  await client.connect(transport);
  return { client, logs: () => logs };
}

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe("a capability over MCP stdio", () => {
  let client: Client;
  let logs: () => string;
  beforeAll(async () => ({ client, logs } = await connect({ API_KEY: "sekret-key-123" })));
  afterAll(() => client.close());

  it("lists every tool with the manifest's schema, a title and annotations from the definition", async () => {
    const { tools } = await client.listTools();
    const described = testCapability.describe().tools;
    expect(tools.map((t) => t.name)).toEqual(described.map((t) => t.name));
    for (const t of described) expect(tools.find((x) => x.name === t.name)?.inputSchema).toEqual(mcpInputSchema(t.input_schema));
    const echo = tools.find((t) => t.name === "echo")!;
    expect(echo.inputSchema).toEqual(described.find((t) => t.name === "echo")!.input_schema);
    expect(echo.annotations).toEqual({ title: "Echo", readOnlyHint: true, openWorldHint: false });
    expect(tools.find((t) => t.name === "keyed")!.annotations).toEqual({ title: "Keyed", readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    const items = (tools.find((t) => t.name === "digest")!.inputSchema.properties!.attachments as { items: { properties: object; required: string[] } }).items;
    expect(Object.keys(items.properties)).toEqual(["uri", "data_base64", "filename", "mime_type"]);
    expect(items.required).toEqual([]);
  });

  it("answers a call with the tool's result, and a bad one with a tool error naming the field", async () => {
    expect(JSON.parse(text(await client.callTool({ name: "echo", arguments: { text: "hi", times: 2 } })))).toEqual({ text: "hihi" });
    const bad = await client.callTool({ name: "echo", arguments: { text: 5 } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^invalid arguments for echo: text: .*expected string/);
    const unknown = await client.callTool({ name: "nope", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('unknown tool "nope"');
  });

  it("passes credentials from the environment and keeps their values out of the logs", async () => {
    expect(JSON.parse(text(await client.callTool({ name: "keyed", arguments: {} })))).toEqual({ key_length: 14 });
    const crash = await client.callTool({ name: "crash", arguments: {} });
    expect(text(crash)).toMatch(/internal error \(reference [0-9a-f]{8}\)/);
    await new Promise((r) => setTimeout(r, 100));
    expect(logs()).toContain("[redacted]");
    expect(logs()).not.toContain("sekret-key-123");
  });

  it("returns files as resources, reads them back, and takes them as attachments by uri or base64", async () => {
    const made = await client.callTool({ name: "make_file", arguments: { size: 300_000, filename: "p.bin" } });
    const link = (made.content as { type: string; uri: string; name: string; size: number }[]).find((c) => c.type === "resource_link")!;
    expect(link).toMatchObject({ name: "p.bin", size: 300_000, uri: expect.stringMatching(/^selu-artifact:\/\/kit-test\/[0-9a-f]{32}$/) });
    expect(JSON.parse(text(made)).artifact).toEqual({ uri: link.uri, filename: "p.bin", mime_type: "application/octet-stream", size_bytes: 300_000 });
    const read = await client.readResource({ uri: link.uri });
    const bytes = Buffer.from((read.contents[0] as { blob: string }).blob, "base64");
    expect(sha256(bytes)).toBe(sha256(pattern(300_000)));

    const byUri = JSON.parse(text(await client.callTool({ name: "digest", arguments: { attachments: [{ uri: link.uri }] } })));
    expect(byUri.files[0]).toMatchObject({ filename: "p.bin", size: 300_000, sha256: sha256(pattern(300_000)) });
    const inline = JSON.parse(
      text(await client.callTool({ name: "digest", arguments: { attachments: [{ data_base64: Buffer.from("abc").toString("base64"), filename: "a.txt", mime_type: "text/plain" }] } })),
    );
    expect(inline.files[0]).toEqual({ filename: "a.txt", mime_type: "text/plain", size: 3, sha256: sha256(Buffer.from("abc")) });
  });

  it("refuses bad attachments and unknown resources in words", async () => {
    const neither = await client.callTool({ name: "digest", arguments: { attachments: [{ filename: "x" }] } });
    expect(neither.isError).toBe(true);
    expect(text(neither)).toContain("attachments[0]: give either uri");
    const foreign = await client.callTool({ name: "digest", arguments: { attachments: [{ uri: "selu-artifact://other/0123456789abcdef0123456789abcdef" }] } });
    expect(text(foreign)).toContain("attachments[0].uri: no file");
    const big = await client.callTool({ name: "digest", arguments: { attachments: [{ data_base64: "A".repeat(7 * 1024 * 1024 + 4) }] } });
    expect(text(big)).toContain("larger than this capability's limit of 5 MiB per file");
    await expect(client.readResource({ uri: "selu-artifact://kit-test/0123456789abcdef0123456789abcdef" })).rejects.toThrow(/unknown or expired resource/);
  });

  it("bounds results as over gRPC", async () => {
    const long = JSON.parse(text(await client.callTool({ name: "long_text", arguments: { chars: 40_000 } })));
    expect(long.shortened).toBe(true);
    const big = await client.callTool({ name: "big_result", arguments: { bytes: 60_000 } });
    expect(big.isError).toBe(true);
  });

  it("stops a tool when the client cancels the call (notifications/cancelled)", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const call = client.callTool({ name: "slow", arguments: { ms: 10_000 } }, undefined, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 200));
    controller.abort("user cancelled");
    await expect(call).rejects.toThrow();
    for (let i = 0; i < 50 && !logs().includes('"outcome":"cancelled"'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(logs()).toMatch(/"tool":"slow","ms":\d+(\.\d+)?,"outcome":"cancelled"/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("reports a generator tool's steps as progress", async () => {
    const steps: number[] = [];
    await client.callTool({ name: "slow", arguments: { ms: 60, steps: 3 } }, undefined, { onprogress: (p) => void steps.push(p.progress) });
    // The SDK's client drops progress that arrives in the same read as the result: the last may be lost.
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(steps).toEqual([1, 2, 3].slice(0, steps.length));
  });
});

describe("dynamic discovery over MCP", () => {
  it("lists what the configuration offers and announces a change of the --config file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcp-config-"));
    const file = join(dir, "config.json");
    await writeFile(file, JSON.stringify({ READ_ONLY: "true" }));
    const { client } = await connect({ MCP_FIXTURE: "dynamic" }, ["--config", file]);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["read_note"]);
      const refused = await client.callTool({ name: "write_note", arguments: { text: "x" } });
      expect(text(refused)).toContain("not offered in this configuration: the notes are read-only");
      const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
      await writeFile(file, JSON.stringify({}));
      await changed;
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["read_note", "write_note"]);
    } finally {
      await client.close();
    }
  });
});

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
};

/** A server process driven with raw JSON-RPC lines, for what a client library hides (shutdown, framing). */
function rawServer(): {
  started: Promise<void>;
  send(message: object | string): void;
  responses: Map<unknown, Record<string, unknown>>;
  stderr: () => string;
  end(): void;
  signal(s: NodeJS.Signals): void;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, [ENTRY, "--mcp", "stdio"], { stdio: ["pipe", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } });
  const responses = new Map<unknown, Record<string, unknown>>();
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    const lines = out.split("\n");
    out = lines.pop()!;
    for (const line of lines) {
      const message = JSON.parse(line) as Record<string, unknown>;
      responses.set(message.id, message);
    }
  });
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const send = (message: object | string) => child.stdin.write(`${typeof message === "string" ? message : JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  send({ id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
  send({ method: "notifications/initialized" });
  return {
    started: until(() => responses.has(0)),
    send,
    responses,
    stderr: () => err,
    end: () => child.stdin.end(),
    signal: (s) => child.kill(s),
    exit: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
  };
}

describe("MCP stdio framing and shutdown", () => {
  it("refuses a message over the bound while it arrives, and goes on serving", async () => {
    const server = rawServer();
    await server.started;
    // The fixture's largest tool takes 16 MiB of arguments: past that plus one base64 file.
    server.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"refuse","arguments":{"reason":"${"x".repeat(24 * 1024 * 1024)}"}}}`);
    server.send({ id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "still here" } } });
    await until(() => server.responses.has(2));
    expect(server.responses.get(null)).toMatchObject({ error: { message: expect.stringMatching(/^message refused: over 2\d\.\d MiB/) } });
    expect(JSON.stringify(server.responses.get(2))).toContain("still here");
    server.end();
    expect(await server.exit).toBe(0);
  });

  it("on stdin closing, answers the call in flight, then exits 0", async () => {
    const server = rawServer();
    await server.started;
    server.send({ id: 1, method: "tools/call", params: { name: "slow", arguments: { ms: 500 } } });
    await new Promise((r) => setTimeout(r, 150));
    server.end();
    expect(await server.exit).toBe(0);
    expect(JSON.stringify(server.responses.get(1))).toContain('{\\"waited\\":500}');
    expect(server.stderr()).toContain('"msg":"stdin closed"');
    expect(server.stderr()).toContain('"msg":"stopped"');
  });

  it("on SIGTERM, drains within the grace period, cancels what is left in words, and exits 0", async () => {
    const server = rawServer();
    await server.started;
    server.send({ id: 1, method: "tools/call", params: { name: "slow", arguments: { ms: 300 } } });
    server.send({ id: 2, method: "tools/call", params: { name: "slow", arguments: { ms: 20_000 } } });
    await new Promise((r) => setTimeout(r, 150));
    server.signal("SIGTERM");
    expect(await server.exit).toBe(0);
    expect(JSON.stringify(server.responses.get(1))).toContain('{\\"waited\\":300}');
    expect(server.responses.get(2)).toMatchObject({ result: { isError: true, content: [{ text: "slow was stopped: the capability is shutting down; try again" }] } });
  });
});

describe("an MCP entrypoint that cannot start", () => {
  it("says why in one line on stderr, keeps stdout clean, and exits 1", async () => {
    const child = spawn(process.execPath, [ENTRY, "--mcp", "sse"], { stdio: ["pipe", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(JSON.parse(err.trim())).toMatchObject({ level: "error", msg: "cannot start", error: '--mcp must be stdio or http, got "sse"' });
  });
});
