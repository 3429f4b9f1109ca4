// Every capability as an MCP server (issue 19), driven by the official SDK's client over stdio and over
// Streamable HTTP, from the production entrypoint, against real counterparts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Capability } from "@selu-catalogue/kit";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { englishStrings, loadCapabilitySource } from "@selu-catalogue/registry";
import type { McpConnection, McpTransportKind } from "@selu-catalogue/testkit/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARINE_BIOLOGY_REPORT } from "./src/scenarios.ts";
import { capabilityDir, MCP_CAPABILITIES, startMcpWorld, type McpCapabilityId, type McpWorld } from "./src/mcp-world.ts";

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
const json = (result: unknown) => {
  const r = result as CallToolResult;
  if (r.isError) throw new Error(`tool error: ${text(r)}`);
  return JSON.parse(text(r)) as Record<string, unknown>;
};
const link = (result: unknown) => (result as CallToolResult).content.find((c) => c.type === "resource_link") as { uri: string; name: string; mimeType: string };

/** The manifest's tools (static), or every tool the code defines (dynamic: the manifest lists none). */
async function definedTools(world: McpWorld, id: McpCapabilityId) {
  const manifest = world.manifests[id];
  if (manifest.tool_source !== "dynamic") return manifest.tools;
  const built = (await import(pathToFileURL(join(capabilityDir(id), "dist/capability.js")).href)) as { default: Capability };
  return built.default.describe().tools;
}

let world: McpWorld;
beforeAll(async () => {
  world = await startMcpWorld();
}, 60_000);
afterAll(() => world?.close());

describe.each(["stdio", "http"] as McpTransportKind[])("every capability over MCP %s", (transport) => {
  const servers = {} as Record<McpCapabilityId, McpConnection>;
  beforeAll(async () => {
    for (const id of MCP_CAPABILITIES) servers[id] = await world.connect(id, transport);
  }, 60_000);

  it("lists each capability's tools with the manifest's schemas, titles and annotations", async () => {
    for (const id of MCP_CAPABILITIES) {
      const { tools } = await servers[id].client.listTools();
      const defined = await definedTools(world, id);
      // file-manager's discovery offers its local tools when no remote store is configured.
      const offered = id === "catalogue-file-manager" ? defined.filter((t) => !t.name.startsWith("remote_")) : defined;
      expect(
        tools.map((t) => t.name),
        id,
      ).toEqual(offered.map((t) => t.name));
      // Titles are the display names Selu shows for the same tools (the registry's English strings).
      const english = englishStrings(await loadCapabilitySource(capabilityDir(id)));
      for (const want of offered) {
        const got = tools.find((t) => t.name === want.name) as Tool;
        const { attachments, ...rest } = (want.input_schema.properties ?? {}) as Record<string, { items?: { properties: Record<string, unknown> } }>;
        const { attachments: gotAttachments, ...gotRest } = (got.inputSchema.properties ?? {}) as Record<string, { items?: { properties: Record<string, unknown> } }>;
        expect({ ...got.inputSchema, properties: gotRest }, `${id} ${want.name}`).toEqual({ ...want.input_schema, properties: rest });
        if (attachments) {
          // Selu's {artifact_id} becomes an MCP resource uri or base64 content; per-file fields stay.
          const { artifact_id: _, ...fields } = attachments.items!.properties;
          expect(gotAttachments!.items!.properties).toEqual({ uri: expect.any(Object), data_base64: expect.any(Object), filename: expect.any(Object), mime_type: expect.any(Object), ...fields });
        }
        expect(got.annotations?.readOnlyHint, `${id} ${want.name}`).toBe(want.recommended_policy === "allow");
        expect(got.title, `${id} ${want.name}`).toBe(english.tools[want.name]!.display_name);
      }
    }
  });

  it("answers an invalid call of every capability with a tool error the model can read", async () => {
    for (const id of MCP_CAPABILITIES) {
      const [first] = (await servers[id].client.listTools()).tools;
      const result = (await servers[id].client.callTool({ name: first!.name, arguments: { no_such_argument: 1 } })) as CallToolResult;
      expect(result.isError, id).toBe(true);
      expect(text(result), id).toMatch(new RegExp(`^invalid arguments for ${first!.name}: .*unknown key "no_such_argument"`));
    }
  });

  it("example: echoes, makes a file read back as a resource, and describes it by uri", async () => {
    const { client } = servers["catalogue-example"];
    expect(json(await client.callTool({ name: "echo", arguments: { text: "hello over MCP" } }))).toMatchObject({ text: "hello over MCP" });
    const made = await client.callTool({ name: "make_text_file", arguments: { filename: "note.txt", text: "a note" } });
    const read = await client.readResource({ uri: link(made).uri });
    expect((read.contents[0] as { text: string }).text).toBe("a note");
    const described = json(await client.callTool({ name: "describe_files", arguments: { attachments: [{ uri: link(made).uri }] } }));
    expect(JSON.stringify(described)).toContain("note.txt");
  });

  it("pdf -> email: a PDF read back as a resource is sent as an attachment and arrives byte for byte", async () => {
    const pdf = servers["catalogue-pdf"].client;
    const created = await pdf.callTool({ name: "create_pdf_document", arguments: { ...MARINE_BIOLOGY_REPORT } });
    expect(json(created).artifact).toMatchObject({ filename: "marine-biology.pdf", mime_type: "application/pdf" });
    const resource = (await pdf.readResource({ uri: link(created).uri })).contents[0] as { blob: string; mimeType: string };
    const bytes = Buffer.from(resource.blob, "base64");
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const extracted = json(await pdf.callTool({ name: "extract_pdf_text", arguments: { attachments: [{ uri: link(created).uri }] } }));
    expect(JSON.stringify(extracted)).toContain("Coral reefs cover");

    const before = world.smtp.messages.length;
    const sent = json(
      await servers["catalogue-email"].client.callTool({
        name: "send_email",
        arguments: {
          to: ["alice@example.com"],
          subject: `The report, over MCP ${transport}`,
          text: "Attached.",
          attachments: [{ data_base64: resource.blob, filename: "marine-biology.pdf", mime_type: resource.mimeType }],
        },
      }),
    );
    await world.smtp.waitForMessages(before + 1, 10_000);
    const received = world.smtp.messages.find((m) => m.messageId === sent.message_id)!;
    expect(received.subject).toBe(`The report, over MCP ${transport}`);
    expect(received.attachments).toHaveLength(1);
    expect(received.attachments[0]).toMatchObject({ filename: "marine-biology.pdf", contentType: "application/pdf" });
    expect(received.attachments[0]!.content.equals(bytes)).toBe(true);
    const boxes = json(await servers["catalogue-email"].client.callTool({ name: "list_mailboxes", arguments: {} }));
    expect(JSON.stringify(boxes)).toContain("INBOX");
  });

  it("web-search: searches Brave through the egress proxy", async () => {
    const found = json(await servers["catalogue-web-search"].client.callTool({ name: "web_search", arguments: { query: `selu ${transport}` } }));
    expect(found.provider).toBe("brave");
    expect(JSON.stringify(found.results)).toContain(`selu ${transport} result 1`);
  });

  it("web-search: a cancelled call (notifications/cancelled) stops its upstream request", async () => {
    const { client, output } = servers["catalogue-web-search"];
    const before = { ...world.slowSearches };
    const controller = new AbortController();
    const call = client.callTool({ name: "web_search", arguments: { query: `slow ${transport}` } }, undefined, { signal: controller.signal });
    for (let i = 0; i < 200 && world.slowSearches.held === before.held; i++) await new Promise((r) => setTimeout(r, 25));
    controller.abort("the user stopped it");
    await expect(call).rejects.toThrow();
    for (let i = 0; i < 200 && world.slowSearches.abandoned === before.abandoned; i++) await new Promise((r) => setTimeout(r, 25));
    expect(world.slowSearches.abandoned).toBe(before.abandoned + 1);
    for (let i = 0; i < 100 && !output().includes('"outcome":"cancelled"'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(output()).toMatch(/"tool":"web_search","ms":[\d.]+,"outcome":"cancelled"/);
  });

  it("file-manager: writes and reads the workspace, exports a file as a resource and imports base64", async () => {
    const { client } = servers["catalogue-file-manager"];
    json(await client.callTool({ name: "write_file", arguments: { path: `${transport}/hello.txt`, content: "hello workspace", overwrite: true } }));
    expect(readFileSync(join(world.workspace, transport, "hello.txt"), "utf8")).toBe("hello workspace");
    expect(JSON.stringify(json(await client.callTool({ name: "read_file", arguments: { path: `${transport}/hello.txt` } })))).toContain("hello workspace");
    const exported = await client.callTool({ name: "export_file", arguments: { path: `${transport}/hello.txt` } });
    const read = (await client.readResource({ uri: link(exported).uri })).contents[0] as { text?: string; blob?: string };
    expect(read.text ?? Buffer.from(read.blob!, "base64").toString()).toBe("hello workspace");
    const imported = await client.callTool({
      name: "import_attachment",
      arguments: { attachments: [{ data_base64: Buffer.from("imported").toString("base64"), filename: "in.txt", mime_type: "text/plain" }], directory: transport },
    });
    json(imported);
    expect(readFileSync(join(world.workspace, transport, "in.txt"), "utf8")).toBe("imported");
  });

  it("stops every server when its client goes away", async () => {
    for (const id of MCP_CAPABILITIES) {
      await servers[id].close();
      expect(servers[id].output(), id).toContain('"msg":"stopped"');
    }
  });
});

describe("each capability's README", () => {
  it("shows the catalogue's MCP launch command as an MCP client's server entry", () => {
    const catalogue = JSON.parse(readFileSync(new URL("../registry/catalogue.json", import.meta.url), "utf8")) as { capabilities: { id: string; mcp: { command: string; args: string[] } }[] };
    for (const id of MCP_CAPABILITIES) {
      const readme = readFileSync(join(capabilityDir(id), "README.md"), "utf8");
      const block = /## MCP\n[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
      expect(block, `${id} README has no MCP server entry`).toBeDefined();
      const entry = (JSON.parse(block!) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers[id];
      expect({ command: entry?.command, args: entry?.args }, id).toEqual(catalogue.capabilities.find((c) => c.id === id)!.mcp);
    }
  });
});
