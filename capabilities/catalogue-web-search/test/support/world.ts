import type { LookupAddress } from "node:dns";
import type { IncomingMessage, ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { serve, silentLogger, type ServedCapability } from "@selu-catalogue/kit";
import { proxyFromEnv } from "@selu-catalogue/kit/egress";
import { loadManifest } from "@selu-catalogue/manifest";
import { Orchestrator, createTestCa, startEgressProxy, startHttpsServer, type CallOutcome, type EgressProxy, type LocalServer, type ManifestView, type TestCa } from "@selu-catalogue/testkit";
import { createWebSearch } from "../../src/capability.js";
import { braveSuccess, handle, providerDouble, searxngSuccess, tavilySuccess, type ProviderDouble } from "./provider-doubles.js";

export const dir = fileURLToPath(new URL("../..", import.meta.url));
const loaded = loadManifest(`${dir}/manifest.yaml`);
if (!loaded.manifest) throw new Error(`manifest.yaml: ${JSON.stringify(loaded.problems)}`);
export const manifest = loaded.manifest as unknown as ManifestView & { network: { mode: "any" | "allowlist" | "none"; hosts: string[] } };
/** The capability id, read from the manifest (the catalogue renames ids later). */
export const ID = manifest.id;

/** A page the page server answers; a function answers by hand (redirects, stalls). */
export type PageRoute = { status?: number; type?: string; body: string | Buffer; headers?: Record<string, string> } | ((req: IncomingMessage, res: ServerResponse) => void);

/** Names resolved by the DNS pre-check in tests (everything else: not found, as on a machine without DNS). */
export const FAKE_DNS: Record<string, string[]> = {
  "intranet-wiki.example.com": ["10.1.2.3"],
  "metadata-alias.example.com": ["169.254.169.254"],
  "rebind.example.com": ["93.184.216.34", "127.0.0.1"],
  "v6-loopback.example.com": ["::1"],
  "public.example.com": ["93.184.216.34"],
};

export const PAGE_HOSTS = [
  "news.example.com",
  "docs.example.org",
  "forum.example.net",
  "app.example.com",
  "alt.example.de",
  "files.example.org",
  "big.example.com",
  "short.example.com",
  "public.example.com",
  "slow.example.com",
];

/**
 * Everything a web-search test meets: provider doubles at the providers' production names (Brave,
 * Tavily, a SearXNG at searx.example.org) and a page server for fixture sites, each an HTTPS server with
 * a certificate from a test CA, reached only through the egress proxy double with the manifest's policy;
 * the capability served over real gRPC on loopback, and the orchestrator double holding credentials.
 */
export interface SearchWorld {
  ca: TestCa;
  proxy: EgressProxy;
  brave: ProviderDouble;
  searxng: ProviderDouble;
  tavily: ProviderDouble;
  pages: Map<string, PageRoute>;
  served: ServedCapability;
  /** Calls `<id>__<tool>` with the given credentials (default: all three providers). */
  call(tool: string, args: Record<string, unknown>, credentials?: Record<string, string>): Promise<CallOutcome>;
  ok(tool: string, args: Record<string, unknown>, credentials?: Record<string, string>): Promise<Record<string, unknown>>;
  fails(tool: string, args: Record<string, unknown>, credentials?: Record<string, string>): Promise<string>;
  close(): Promise<void>;
}

export const ALL_PROVIDERS = { BRAVE_API_KEY: "BSA-test-key", SEARXNG_URL: "https://searx.example.org", TAVILY_API_KEY: "tvly-test-key" };

export async function startSearchWorld(options: { providerTimeoutMs?: number } = {}): Promise<SearchWorld> {
  const ca = createTestCa();
  const brave = providerDouble(braveSuccess);
  const searxng = providerDouble(searxngSuccess);
  const tavily = providerDouble(tavilySuccess);
  const pages = new Map<string, PageRoute>();
  const servers: LocalServer[] = [
    await startHttpsServer(ca.issue(["api.search.brave.com"]), handle(brave)),
    await startHttpsServer(ca.issue(["searx.example.org"]), handle(searxng)),
    await startHttpsServer(ca.issue(["api.tavily.com"]), handle(tavily)),
    await startHttpsServer(ca.issue(PAGE_HOSTS), (req, res) => {
      const route = pages.get(`${req.headers.host}${req.url}`);
      if (!route) return res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      if (typeof route === "function") return route(req, res);
      res.writeHead(route.status ?? 200, { "content-type": route.type ?? "text/html; charset=utf-8", ...route.headers }).end(route.body);
    }),
  ];
  const [braveServer, searxServer, tavilyServer, pageServer] = servers as [LocalServer, LocalServer, LocalServer, LocalServer];
  const proxy = await startEgressProxy({ policy: manifest.network as never, capability: ID });
  proxy.map("api.search.brave.com:443", `127.0.0.1:${braveServer.port}`);
  proxy.map("searx.example.org:443", `127.0.0.1:${searxServer.port}`);
  proxy.map("api.tavily.com:443", `127.0.0.1:${tavilyServer.port}`);
  for (const host of PAGE_HOSTS) proxy.map(`${host}:443`, `127.0.0.1:${pageServer.port}`);

  const proxyConfig = proxyFromEnv(proxy.env);
  const capability = createWebSearch({
    proxy: proxyConfig,
    ca: ca.certPem,
    lookup: (host, callback) => {
      const found = FAKE_DNS[host];
      if (!found) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" }), []);
      callback(
        null,
        found.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 })),
      );
    },
    ...(options.providerTimeoutMs ? { providerTimeoutMs: options.providerTimeoutMs } : {}),
  });
  const served = await serve(capability, { port: 0, host: "127.0.0.1", handleSignals: false, logger: silentLogger, egress: { proxy: proxyConfig, ca: ca.certPem } });
  await served.ready;
  const orchestrators = new Map<string, Orchestrator>();
  const orchestratorFor = async (credentials: Record<string, string>) => {
    const key = JSON.stringify(credentials);
    let orchestrator = orchestrators.get(key);
    if (!orchestrator) {
      orchestrator = new Orchestrator({ credentials: { [ID]: credentials } });
      await orchestrator.install(manifest, `127.0.0.1:${served.port}`);
      orchestrators.set(key, orchestrator);
    }
    return orchestrator;
  };
  const call = async (tool: string, args: Record<string, unknown>, credentials: Record<string, string> = ALL_PROVIDERS) => (await orchestratorFor(credentials)).call(`${ID}__${tool}`, args);
  return {
    ca,
    proxy,
    brave,
    searxng,
    tavily,
    pages,
    served,
    call,
    async ok(tool, args, credentials) {
      const outcome = await call(tool, args, credentials);
      if (!outcome.ok) throw new Error(`${tool} failed: ${outcome.error}`);
      return outcome.result;
    },
    async fails(tool, args, credentials) {
      const outcome = await call(tool, args, credentials);
      if (outcome.ok) throw new Error(`${tool} succeeded, expected an error: ${JSON.stringify(outcome.result).slice(0, 500)}`);
      return outcome.capabilityError ?? outcome.error;
    },
    async close() {
      for (const o of orchestrators.values()) await o.close();
      await served.close(0);
      await proxy.close();
      for (const s of servers) await s.close();
    },
  };
}
