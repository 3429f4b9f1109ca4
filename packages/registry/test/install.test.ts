import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Manifest } from "@selu-catalogue/manifest";
import { Orchestrator, startCapabilityProcess, type CapabilityProcess } from "@selu-catalogue/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRegistry, writeMarketplace } from "../src/build.js";
import { BUILD_RECORDS, builtImageProblems, inspectImage, readBuildRecords } from "../src/built-images.js";
import { discoverCapabilities, loadCapabilitySource } from "../src/capability-source.js";
import { checkAgentPackage, type LoadedAgent } from "../src/check-package.js";
import { extractTarGz } from "../src/extract.js";
import { type MarketplaceEntry, marketplaceSchema } from "../src/selu-schemas.js";
import { REPO_ROOT } from "../src/test-fixtures.js";

// Does what Selu's installer does (agents/marketplace.rs install_agent), step by step, against the
// marketplace this repository builds, served over HTTP on loopback.
let server: Server;
let baseUrl: string;
const installed = new Map<string, { entry: MarketplaceEntry; loaded: LoadedAgent; files: Map<string, Uint8Array> }>();
const sources = await Promise.all(discoverCapabilities(REPO_ROOT).map((dir) => loadCapabilitySource(dir)));
const dirOf = (id: string) => sources.find((s) => s.manifest.id === id)!.dir;

beforeAll(async () => {
  const site = mkdtempSync(join(tmpdir(), "marketplace-"));
  server = createServer((req, res) => {
    const file = join(site, decodeURIComponent(new URL(req.url!, "http://x").pathname).replace(/^\/+/, ""));
    if (!file.startsWith(site) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": file.endsWith(".json") ? "application/json" : "application/gzip" }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  writeMarketplace(await buildRegistry(REPO_ROOT), join(site, "archives"), `${baseUrl}/archives/`);
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Selu's fetch: a 15 s timeout and an error for any status but 2xx. */
async function get(url: string, timeoutMs: number): Promise<Buffer> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`HTTP ${res.status} for ${url}`);
  return Buffer.from(await res.arrayBuffer());
}

describe("installing from the marketplace as Selu does", () => {
  it("fetches the index, then downloads, verifies, extracts and loads every agent", async () => {
    const index = marketplaceSchema.parse(JSON.parse((await get(`${baseUrl}/archives/marketplace.json`, 15_000)).toString("utf8")));
    expect(index.version).toBe(1);
    expect(index.agents.map((a) => a.id).sort()).toEqual(sources.map((s) => s.manifest.id).sort());

    for (const entry of index.agents) {
      const archive = await get(entry.archive_url, 120_000);
      expect(createHash("sha256").update(archive).digest("hex"), `${entry.id}: archive_sha256`).toBe(entry.archive_sha256.toLowerCase());
      const files = extractTarGz(archive);
      const { loaded, problems } = checkAgentPackage(files);
      expect(problems, `${entry.id}: problems loading the extracted package`).toEqual([]);
      // Selu lets the marketplace id win; the package says the same, so nothing is overridden.
      expect(loaded!.agent.id).toBe(entry.id);
      expect(entry.version).toMatch(/^\d+\.\d+\.\d+/);
      for (const [dir, manifest] of loaded!.manifests) {
        // The runner never pulls: each image must be one Selu pulled from capability_images.
        expect(entry.capability_images, `capabilities/${dir}/manifest.yaml image`).toContain(manifest.image);
        // One version everywhere: the image is tagged with the version the marketplace announces.
        expect(manifest.image.split(":").at(-1), `capabilities/${dir}/manifest.yaml image tag`).toBe(entry.version);
      }
      expect([...files.keys()].filter((p) => p.endsWith("prompt.md")).length).toBe(loaded!.manifests.size);
      installed.set(entry.id, { entry, loaded: loaded!, files });
    }
  });

  describe("an installed agent answers a tool call from its production entrypoint", () => {
    let capability: CapabilityProcess | undefined;
    let orchestrator: Orchestrator | undefined;
    afterAll(async () => {
      await orchestrator?.close();
      await capability?.stop();
    });

    it("runs a tool of the first agent that needs no credentials or network, using only its archive's manifest", async () => {
      const probe = [...installed.values()]
        .flatMap(({ loaded }) => [...loaded.manifests.values()])
        .map((m) => ({ m, tool: plainTool(m) }))
        .find((p) => p.tool);
      expect(probe, "an agent with a tool that takes plain strings and needs no credentials or network").toBeDefined();
      const { m, tool } = probe!;
      // Container sources are not part of the package: the code comes from the repository.
      const dir = dirOf(m.id);
      if (!existsSync(join(dir, "dist"))) throw new Error(`${dir} is not built: run ./dev build first`);
      capability = await startCapabilityProcess(dir);
      orchestrator = new Orchestrator();
      await orchestrator.install(m, capability.address);
      const args = Object.fromEntries(tool!.required.map((field) => [field, "hello from the marketplace"]));
      const outcome = await orchestrator.call(`${m.id}__${tool!.name}`, args);
      expect(outcome, capability.output()).toMatchObject({ ok: true });
      expect(JSON.stringify(outcome)).toContain("hello from the marketplace");
    });
  });

  describe("discovery at install, as Selu runs it for an agent whose tools are discovered", () => {
    const dynamic = sources.filter((s) => s.manifest.tool_source === "dynamic");
    it.each(dynamic.map((s) => s.manifest.id))("%s: every tool it discovers has its strings in every locale", async (id) => {
      const { files, loaded } = installed.get(id)!;
      const manifest = [...loaded.manifests.values()].find((m) => m.id === id)!;
      // As installed: no settings yet, so discovery gets no system credentials (contract section 5).
      const capability = await startCapabilityProcess(dirOf(id));
      const orchestrator = new Orchestrator();
      try {
        await orchestrator.install(manifest, capability.address);
        const discovered = await orchestrator.discover(id);
        expect(discovered.length, capability.output()).toBeGreaterThan(0);
        expect(checkAgentPackage(files, new Map([[id, discovered]])).problems).toEqual([]);
      } finally {
        await orchestrator.close();
        await capability.stop();
      }
    });
  });

  // Selu pulls each capability_images entry and its runner starts the manifest's image as written. Images
  // built in this run (./dev images runs this file again with SELU_IMAGES_BUILT naming them) must resolve
  // to an image with the labels their Dockerfile sets now. An image built by an earlier run is checked
  // too, but a stale one (sources changed since) is reported as not checked rather than failing ./dev test.
  describe("the image each manifest names was built, with the labels its Dockerfile sets", () => {
    const records = readBuildRecords(REPO_ROOT);
    const thisRun = (process.env.SELU_IMAGES_BUILT ?? "").split(",").filter(Boolean);
    it.for(sources.map((s) => s.manifest.id))("%s", async (id, ctx) => {
      const { entry, loaded } = installed.get(id)!;
      const { imageLabels } = (await import(join(REPO_ROOT, "scripts", "dockerfile.mjs"))) as { imageLabels(dir: string): Record<string, string> };
      for (const manifest of loaded.manifests.values()) {
        const record = records.get(manifest.id);
        const builtNow = thisRun.includes(manifest.id);
        if (!record) {
          expect(builtNow, `./dev images built ${manifest.id} in this run but left no record of it in ${BUILD_RECORDS}`).toBe(false);
          return ctx.skip(`not checked: no image of ${manifest.id} was built in this checkout; ./dev images builds it and runs this check (CI does, after ./dev test)`);
        }
        const expected = { image: manifest.image, version: entry.version, labels: imageLabels(dirOf(manifest.id)) };
        const problems = builtImageProblems(inspectImage(record, manifest.image), expected);
        if (!builtNow && problems.length > 0) return ctx.skip(`not checked: the image built here on ${record.builtAt} is stale (${problems.join("; ")}); run ./dev images`);
        expect(problems, `${record.imageId}, built ${record.builtAt} in ${record.storage}`).toEqual([]);
      }
    });
  });
});

/** A tool whose required arguments are all unconstrained strings, in a capability with nothing to set up. */
function plainTool(m: Manifest): { name: string; required: string[] } | undefined {
  if (m.credentials.length > 0 || m.network.mode !== "none" || m.tool_source !== "manifest") return undefined;
  for (const tool of m.tools) {
    const schema = tool.input_schema as { required?: string[]; properties?: Record<string, Record<string, unknown>> };
    const required = schema.required ?? [];
    const plain = required.every((f) => {
      const p = schema.properties?.[f];
      return p?.type === "string" && p.pattern === undefined && p.format === undefined && p.enum === undefined;
    });
    if (required.length > 0 && plain && tool.recommended_policy === "allow") return { name: tool.name, required };
  }
  return undefined;
}
