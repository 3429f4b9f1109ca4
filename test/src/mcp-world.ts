// Every capability served over MCP (issue 19) from its production entrypoint (`<start script> --mcp ...`),
// against the real counterparts the gRPC end-to-end tests use: each behind its own egress proxy double
// (its manifest's network policy), real SMTP and IMAP servers under a provider's names, a Brave Search
// double, a temporary workspace. Credentials are environment variables named as in the manifest.
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadManifest, type Manifest } from "@selu-catalogue/manifest";
import { createTestCa, startEgressProxy, startHttpsServer } from "@selu-catalogue/testkit";
import type { SmtpTestServer } from "@selu-catalogue/testkit/mail";
import { connectMcp, startCommand, type McpConnection, type McpTransportKind } from "@selu-catalogue/testkit/mcp";
import { IMAP_NAME, MAILBOX, SMTP_NAME, startMailServers } from "./catalogue-world.ts";

export const MCP_CAPABILITIES = ["catalogue-example", "catalogue-pdf", "catalogue-email", "catalogue-web-search", "catalogue-file-manager"] as const;
export type McpCapabilityId = (typeof MCP_CAPABILITIES)[number];

export const capabilityDir = (id: string) => fileURLToPath(new URL(`../../capabilities/${id}/`, import.meta.url));

export interface McpWorld {
  readonly smtp: SmtpTestServer;
  readonly workspace: string;
  /** Searches for "slow ..." the Brave double holds (answered after 20 s), and those whose client went away. */
  readonly slowSearches: { held: number; abandoned: number };
  readonly manifests: Readonly<Record<McpCapabilityId, Manifest>>;
  /** Starts a capability over `transport` with its environment and connects a client. */
  connect(id: McpCapabilityId, transport: McpTransportKind): Promise<McpConnection>;
  close(): Promise<void>;
}

/** What Brave's web search answers (peers.md), for any query. */
function braveAnswer(query: string): object {
  const results = [1, 2].map((i) => ({
    title: `${query} result ${i}`,
    url: `https://site${i}.example.com/`,
    description: `About ${query}, number ${i}.`,
    meta_url: { hostname: `site${i}.example.com` },
  }));
  return { type: "search", query: { original: query }, web: { type: "search", results } };
}

export async function startMcpWorld(): Promise<McpWorld> {
  const stack: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const stop of stack.reverse()) await stop().catch(() => undefined);
  };
  try {
    const ca = createTestCa();
    const caFile = await ca.writeCertFile();
    const { smtp, imap } = await startMailServers(ca, stack);
    const slowSearches = { held: 0, abandoned: 0 };
    const brave = await startHttpsServer(ca.issue(["api.search.brave.com"]), (req, res) => {
      const query = new URL(req.url ?? "/", "https://api.search.brave.com").searchParams.get("q") ?? "";
      if (query.startsWith("slow")) {
        slowSearches.held++;
        const timer = setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(braveAnswer(query))), 20_000);
        res.once("close", () => {
          if (res.writableFinished) return;
          clearTimeout(timer);
          slowSearches.abandoned++;
        });
        return;
      }
      const ok = req.headers["x-subscription-token"] === "BSA-mcp";
      res.writeHead(ok ? 200 : 422, { "content-type": "application/json" }).end(JSON.stringify(ok ? braveAnswer(query) : { error: { code: "SUBSCRIPTION_TOKEN_INVALID" } }));
    });
    stack.push(() => brave.close());
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), "mcp-workspace-")));

    const manifests = {} as Record<McpCapabilityId, Manifest>;
    const envs = {} as Record<McpCapabilityId, Record<string, string>>;
    const maps: Record<McpCapabilityId, Record<string, string>> = {
      "catalogue-example": {},
      "catalogue-pdf": {},
      "catalogue-email": { [`${SMTP_NAME}:587`]: `127.0.0.1:${smtp.port}`, [`${IMAP_NAME}:993`]: `127.0.0.1:${imap.port}` },
      "catalogue-web-search": { "api.search.brave.com:443": `127.0.0.1:${brave.port}` },
      "catalogue-file-manager": {},
    };
    const credentials: Record<McpCapabilityId, Record<string, string>> = {
      "catalogue-example": {},
      "catalogue-pdf": {},
      "catalogue-email": { SMTP_HOST: SMTP_NAME, SMTP_PORT: "587", IMAP_HOST: IMAP_NAME, EMAIL_USERNAME: MAILBOX.user, EMAIL_PASSWORD: MAILBOX.password, EMAIL_FROM_NAME: MAILBOX.name },
      "catalogue-web-search": { BRAVE_API_KEY: "BSA-mcp" },
      "catalogue-file-manager": { WORKSPACE_ROOT: workspace },
    };
    for (const id of MCP_CAPABILITIES) {
      const manifest = loadManifest(`${capabilityDir(id)}manifest.yaml`).manifest;
      if (!manifest) throw new Error(`capabilities/${id}/manifest.yaml does not load`);
      manifests[id] = manifest;
      const proxy = await startEgressProxy({ policy: manifest.network, capability: id, map: maps[id] });
      stack.push(() => proxy.close());
      envs[id] = { ...proxy.env, NODE_EXTRA_CA_CERTS: caFile, LOG_LEVEL: "info", ...credentials[id] };
    }
    return {
      smtp,
      workspace,
      slowSearches,
      manifests,
      async connect(id, transport) {
        const connection = await connectMcp(transport, { command: startCommand(capabilityDir(id)), cwd: capabilityDir(id), env: envs[id] });
        stack.push(() => connection.close());
        return connection;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
