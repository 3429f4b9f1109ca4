import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { checkCatalogueRules, checkManifestAgainstCode, loadManifest, toolDescriptionSchema, type CapabilityDescription } from "@selu-catalogue/manifest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createContainerCgroup, imageLaunch, mountsOf, peakRssMiB, sandboxCommand, testImageFor, tmpUsageMiB, type ContainerCgroup } from "../container/index.js";
import { connectMcp } from "../mcp/index.js";
import { connect, download, healthcheck, invoke, upload } from "../orchestrator/grpc-calls.js";
import { cpuTimeMs, startCapabilityProcess, type CapabilityProcess } from "../process/index.js";
import { checkDockerfile, imageEnv } from "./dockerfile.js";
import { wrongValueFor } from "./wrong-values.js";

// The parts of a tool's JSON Schema the argument checks read.
const objectSchema = z.object({ properties: z.record(z.string(), z.unknown()).optional(), required: z.array(z.string()).optional() });
// What a discovery call answers: the tools without terminal_on_success (Selu allows none for them).
const discoveredToolsSchema = z.array(toolDescriptionSchema.omit({ terminal_on_success: true }));

export interface ConformanceOptions {
  /** The capability's directory (capabilities/<id>). */
  dir: string;
  /** Per-file artifact cap the capability enforces, in bytes (default 5 MiB). */
  maxArtifactBytes?: number;
  /** Extra environment for the process (credentials never go here: they arrive in config_json). */
  env?: Record<string, string>;
  /**
   * Mount a fresh temporary directory as /workspace, writable, as Selu does for `class: environment`
   * with `filesystem: workspace` (the only writable place besides /tmp).
   */
  workspace?: boolean;
}

/**
 * The checks every capability passes, as one call inside a test file:
 * `conformance({ dir: fileURLToPath(new URL("..", import.meta.url)) })`. Starts the production
 * entrypoint under Selu's container constraints and checks the Dockerfile, readiness within 2 s of CPU time, argument
 * validation of every tool, the same tools over MCP stdio, unknown tool, oversized upload, unknown artifact id, concurrent calls, memory
 * and SIGTERM draining.
 */
export function conformance(options: ConformanceOptions): void {
  const { dir } = options;
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts: { start: string } };
  let description: CapabilityDescription;
  let proc: CapabilityProcess;
  let client: ReturnType<typeof connect>;
  let readyCpuMs = 0;
  let sandbox: (command: string[]) => string[];
  let cgroup: ContainerCgroup | undefined;
  const resources = () => loadManifest(join(dir, "manifest.yaml")).manifest?.resources ?? { max_memory_mb: 128, pids_limit: 64 };
  let workspace: string | undefined;
  const discover = async (name: string): Promise<CapabilityDescription["tools"]> => {
    const res = await call(name, {});
    if (res.error) throw new Error(`discovery (${name}) failed: ${res.error}`);
    const tools = discoveredToolsSchema.parse(JSON.parse(res.resultJson.toString("utf8")));
    return tools.map((t) => ({ ...t, terminal_on_success: false }));
  };
  const call = (tool: string, args: unknown) =>
    invoke(client, {
      toolName: tool,
      argsJson: Buffer.from(JSON.stringify(args)),
      configJson: Buffer.from("{}"),
      sessionId: "conformance",
      capabilityId: description.id,
      threadId: "",
    });

  describe(`conformance: ${dir.split("/").filter(Boolean).at(-1)}`, () => {
    beforeAll(async () => {
      const mod = (await import(pathToFileURL(join(dir, "dist/capability.js")).href)) as { default: { describe(): CapabilityDescription } };
      description = mod.default.describe();
      const started = Date.now();
      // The image's own ENV (NODE_ENV, MALLOC_ARENA_MAX, ...), as the container would run with it.
      const env = { ...imageEnv(readFileSync(join(dir, "Dockerfile"), "utf8")), ...options.env };
      // Selu's memory limit (with /tmp charged to it) and pids_limit, enforced by the kernel where we can.
      cgroup = createContainerCgroup({ memoryMb: resources().max_memory_mb, pidsLimit: resources().pids_limit });
      workspace = options.workspace ? mkdtempSync(join(tmpdir(), "conformance-workspace-")) : undefined;
      const writable = workspace ? [{ host: workspace, path: "/workspace" }] : [];
      proc = await startCapabilityProcess(dir, { wrap: (cmd) => sandboxCommand(cmd, cgroup ? { cgroup, writable } : { writable }), env });
      // The same sandbox without the cgroup, for the MCP server started beside it.
      sandbox = (cmd) => sandboxCommand(cmd, { writable });
      client = connect(proc.address);
      while (!(await healthcheck(client, 200))) {
        if (Date.now() - started > 30_000) throw new Error(`not ready within 30 s:\n${proc.output()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      readyCpuMs = cpuTimeMs(proc.child.pid!);
      // A dynamic capability is checked on the tools its discovery offers without configuration.
      if (description.tool_source === "dynamic") description = { ...description, tools: await discover(description.discovery_tool_name ?? "list_tools") };
    }, 40_000);
    afterAll(async () => {
      client?.close();
      await proc?.stop();
      cgroup?.remove();
      if (workspace) rmSync(workspace, { recursive: true, force: true });
    });

    it("has a manifest valid under Selu's rules, without unknown keys, equal to the code", () => {
      const { manifest, problems } = loadManifest(join(dir, "manifest.yaml"));
      expect(problems).toEqual([]);
      expect(manifest!.id).toBe(dir.split("/").filter(Boolean).at(-1));
      // Capability ids are global across a Selu's agents: the catalogue's own prefix keeps ours apart.
      expect(checkCatalogueRules(manifest!)).toEqual([]);
      expect(checkManifestAgainstCode(manifest!, description)).toEqual([]);
    });

    it("has a Dockerfile Selu's runner can run, whose CMD is the start script", () => {
      expect(checkDockerfile(readFileSync(join(dir, "Dockerfile"), "utf8"), { startScript: pkg.scripts.start })).toEqual([]);
    });

    it("is ready after at most 2 s of CPU time under the container constraints", () => {
      // Selu waits up to 30 s (the loop above); this bounds the work done before readiness. CPU time, not
      // wall time, so the bound means the same on a loaded test host as on an idle server.
      expect(readyCpuMs).toBeLessThan(2_000);
    });

    it("names the tools it has when asked for an unknown one", async () => {
      const res = await call("no_such_tool", {});
      expect(res.error).toContain('unknown tool "no_such_tool"');
      for (const t of description.tools) expect(res.error).toContain(t.name);
    });

    it("serves the same tools over MCP stdio, from the image's own command when an image is tested", async () => {
      // What an MCP host runs (the catalogue's `docker run -i ... --mcp stdio`): the start command, or the
      // image's Entrypoint + Cmd, with `--mcp stdio` after it.
      const image = testImageFor(dir);
      const launch = image ? imageLaunch({ ...image, cmd: [...image.cmd, "--mcp", "stdio"] }, options.env ?? {}, mountsOf(sandbox(["true"]))) : undefined;
      const command = launch ? launch.command : sandbox(["sh", "-c", `exec ${pkg.scripts.start} --mcp stdio`]);
      const mcp = await connectMcp("stdio", { command, cwd: dir, env: options.env ?? {}, complete: true });
      try {
        const { tools } = await mcp.client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(description.tools.map((t) => t.name).sort());
        const refused = await mcp.client.callTool({ name: tools[0]!.name, arguments: { no_such_argument: 1 } });
        expect(refused.isError).toBe(true);
      } finally {
        await mcp.close();
        launch?.cleanup();
      }
    });

    it("refuses {} and wrong types in every tool's arguments, naming the field", async () => {
      for (const t of description.tools) {
        const { required = [], properties } = objectSchema.parse(t.input_schema);
        if (required.length > 0) {
          const res = await call(t.name, {});
          expect(res.error, t.name).toContain(required[0]);
        }
        for (const [field, schema] of Object.entries(properties ?? {})) {
          const wrong = wrongValueFor(schema);
          if (wrong === undefined) continue;
          const res = await call(t.name, { [field]: wrong });
          expect(res.error, `${t.name}.${field}`).toContain(field);
        }
      }
    });

    it("refuses an upload over its per-file limit with the limit in words", async () => {
      const cap = options.maxArtifactBytes ?? 5 * 1024 * 1024;
      const res = await upload(client, Buffer.alloc(cap + 1), "too-big.bin", "application/octet-stream");
      expect(res.error).toMatch(/larger than .*limit/);
    });

    it("answers an error chunk for an unknown artifact id", async () => {
      const res = await download(client, "0".repeat(32));
      expect("error" in res && res.error).toMatch(/unknown or expired artifact id/);
    });

    it("answers concurrent calls", async () => {
      const results = await Promise.all(Array.from({ length: 32 }, () => call("no_such_tool", {})));
      expect(results.every((r) => r.error.startsWith("unknown tool"))).toBe(true);
    });

    it("stays under the manifest's memory limit, /tmp included (no OOM kill under a cgroup where available)", () => {
      const limit = resources().max_memory_mb;
      expect(peakRssMiB(proc.child.pid!) + tmpUsageMiB(proc.child.pid!)).toBeLessThan(limit);
      if (cgroup) expect(cgroup.oomKills()).toBe(0);
    });

    it.runIf(process.getuid?.() === 0)("runs under pids_limit (pids cgroup)", () => {
      if (!cgroup) return;
      expect(cgroup.peakPids() ?? 0).toBeLessThanOrEqual(resources().pids_limit);
      expect(proc.child.exitCode).toBeNull();
    });

    it("drains and exits 0 on SIGTERM", async () => {
      expect(await proc.stop()).toBe(0);
    });
  });
}
