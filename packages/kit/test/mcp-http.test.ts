import { spawn, type ChildProcess } from "node:child_process";
import { connect, createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpInputSchema } from "../src/mcp/tools.ts";
import { mcpTestCapability, pattern } from "./fixtures/mcp-capability.ts";

const ENTRY = fileURLToPath(new URL("fixtures/mcp-entry.ts", import.meta.url));

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "page", version: "0" } } });

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe("a capability over MCP Streamable HTTP", () => {
  let child: ChildProcess;
  let logs = "";
  let url: URL;
  let client: Client;
  let exit: Promise<number | null>;

  beforeAll(async () => {
    const port = await freePort();
    url = new URL(`http://127.0.0.1:${port}/mcp`);
    child = spawn(process.execPath, [ENTRY, "--mcp", "http", "--port", String(port)], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } });
    exit = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    await new Promise<void>((resolve) =>
      child.stdout!.on("data", (d: Buffer) => {
        logs += d.toString();
        if (logs.includes('"msg":"listening"')) resolve();
      }),
    );
    client = new Client({ name: "kit-tests", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url));
  });
  afterAll(() => child.kill("SIGKILL"));

  it("lists the manifest's schemas and answers calls and tool errors, as over stdio", async () => {
    const { tools } = await client.listTools();
    for (const t of mcpTestCapability.describe().tools) expect(tools.find((x) => x.name === t.name)?.inputSchema).toEqual(mcpInputSchema(t.input_schema));
    expect(JSON.parse(text(await client.callTool({ name: "echo", arguments: { text: "over http" } })))).toEqual({ text: "over http" });
    const bad = await client.callTool({ name: "echo", arguments: { text: "" } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain("invalid arguments for echo: text:");
  });

  it("serves a file as a resource to the session that has its uri", async () => {
    const made = await client.callTool({ name: "make_file", arguments: { size: 1000, filename: "p.bin" } });
    const { uri } = JSON.parse(text(made)).artifact as { uri: string };
    const read = await client.readResource({ uri });
    expect(Buffer.from((read.contents[0] as { blob: string }).blob, "base64")).toEqual(pattern(1000));
    expect((await client.listResources()).resources).toEqual([]);
  });

  it("refuses a body over the bound from its length, and a request of an unknown session", async () => {
    const big = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "x".repeat(30 * 1024 * 1024) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { message: string } }).error.message).toMatch(/^request refused: over 2\d\.\d MiB/);
    const stale = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": "nope" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(stale.status).toBe(404);
  });

  it("reads a body sent without a length, a few bytes per chunk, and refuses one that passes the bound while it arrives", async () => {
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const streamed = (pieces: () => Generator<Uint8Array>) => {
      const it = pieces();
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = it.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
      });
    };
    const init = Buffer.from(INIT);
    const small = await fetch(url, {
      method: "POST",
      headers,
      duplex: "half",
      body: streamed(function* () {
        for (let i = 0; i < init.length; i += 3) yield init.subarray(i, i + 3);
      }),
    } as RequestInit);
    expect(small.status).toBe(200);
    const block = new Uint8Array(1024 * 1024).fill(0x20);
    const big = await fetch(url, {
      method: "POST",
      headers,
      duplex: "half",
      body: streamed(function* () {
        for (let i = 0; i < 30; i++) yield block;
      }),
    } as RequestInit).catch((err: unknown) => err);
    // The server answers 413 and closes; fetch may see the answer or the reset of the upload it cut.
    if (big instanceof Response) expect(big.status).toBe(413);
    else expect(String((big as Error).cause ?? big)).toMatch(/ECONNRESET|EPIPE|other side closed|terminated|SocketError/);
  });

  it("refuses a Host that is not loopback (DNS rebinding)", async () => {
    const res = await new Promise<number>((resolve) => {
      const socket = connect(Number(url.port), "127.0.0.1", () => {
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: evil.example:${url.port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${INIT.length}\r\nconnection: close\r\n\r\n${INIT}`,
        );
      });
      let data = "";
      socket.on("data", (d: Buffer) => (data += d.toString()));
      socket.on("end", () => resolve(Number(data.split(" ")[1])));
    });
    expect(res).toBe(403);
  });

  it("on SIGTERM, answers the call in flight and exits 0", async () => {
    // SIGTERM once the call reports its first step, so it is surely running: after a fixed 150 ms a loaded
    // host had not always delivered the request yet, and the client saw its connection reset instead.
    const running = Promise.withResolvers<void>();
    const call = client.callTool({ name: "slow", arguments: { ms: 600, steps: 3 } }, undefined, { onprogress: () => running.resolve() });
    await running.promise;
    child.kill("SIGTERM");
    expect(JSON.parse(text(await call))).toEqual({ waited: 600 });
    expect(await exit).toBe(0);
    expect(logs).toContain('"msg":"stopped"');
  });
});
