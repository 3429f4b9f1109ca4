import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadManifest } from "@selu-catalogue/manifest";
import { sandboxCommand } from "@selu-catalogue/testkit/container";
import { Orchestrator, type ManifestView } from "@selu-catalogue/testkit/orchestrator";
import { startCapabilityProcess, type CapabilityProcess } from "@selu-catalogue/testkit/process";
import { startEgressProxy, type EgressProxy } from "@selu-catalogue/testkit/proxy";
import { createTestCa, startHttpsServer, type LocalServer } from "@selu-catalogue/testkit/tls";
import { v2 as webdav } from "webdav-server";

export const dir = fileURLToPath(new URL("..", import.meta.url));
const loaded = loadManifest(join(dir, "manifest.yaml"));
if (!loaded.manifest) throw new Error(`manifest.yaml: ${JSON.stringify(loaded.problems)}`);
export const manifest = loaded.manifest;
/** The capability id, read from the manifest (the one place it is written for tests). */
export const ID = manifest.id;

export const DAV_HOST = "dav.example.com";
export const DAV_USER = "alice";
export const DAV_PASSWORD = "dav-password-5e1f";
/** The WebDAV settings as an administrator enters them in Selu. */
export const DAV_SETTINGS = { WEBDAV_URL: `https://${DAV_HOST}/files/`, WEBDAV_USERNAME: DAV_USER, WEBDAV_PASSWORD: DAV_PASSWORD };

/**
 * What an end-to-end test meets: the production entrypoint under Selu's container constraints with a
 * temporary directory mounted as /workspace (the only writable place besides /tmp), a real WebDAV server
 * (webdav-server over a directory on disk) with a certificate for dav.example.com from a test CA, reached
 * only through the egress proxy double, and orchestrator doubles holding the system settings.
 */
export interface World {
  /** The host directory mounted as /workspace. */
  workspace: string;
  /** The directory the WebDAV server serves under /files/. */
  davRoot: string;
  proc: CapabilityProcess;
  proxy: EgressProxy;
  /** An orchestrator double with these system settings, discovery done. */
  orchestrator(settings?: Record<string, string>): Promise<Orchestrator>;
  close(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  const ca = createTestCa();
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), "fm-workspace-")));
  const davRoot = realpathSync(mkdtempSync(join(tmpdir(), "fm-dav-")));
  const users = new webdav.SimpleUserManager();
  const user = users.addUser(DAV_USER, DAV_PASSWORD, false);
  const privileges = new webdav.SimplePathPrivilegeManager();
  privileges.setRights(user, "/", ["all"]);
  const dav = new webdav.WebDAVServer({ httpAuthentication: new webdav.HTTPBasicAuthentication(users, "dav"), privilegeManager: privileges });
  await new Promise<void>((resolve, reject) => dav.setFileSystem("/files", new webdav.PhysicalFileSystem(davRoot), (ok) => (ok ? resolve() : reject(new Error("webdav mount failed")))));
  const https: LocalServer = await startHttpsServer(ca.issue([DAV_HOST]), (req, res) => dav.executeRequest(req, res));
  const proxy = await startEgressProxy({ policy: manifest.network, capability: ID, map: { [`${DAV_HOST}:443`]: `${https.host}:${https.port}` } });
  const caFile = await ca.writeCertFile();
  const proc = await startCapabilityProcess(dir, {
    env: { ...proxy.env, NODE_EXTRA_CA_CERTS: caFile },
    wrap: (command) => sandboxCommand(command, { readOnly: [dirname(caFile)], writable: [{ host: workspace, path: "/workspace" }] }),
  });
  const orchestrators: Orchestrator[] = [];
  return {
    workspace,
    davRoot,
    proc,
    proxy,
    async orchestrator(settings = {}) {
      const o = new Orchestrator({ credentials: { [ID]: settings } });
      await o.install(manifest as ManifestView, proc.address);
      orchestrators.push(o);
      return o;
    },
    async close() {
      for (const o of orchestrators) await o.close();
      await proc.stop();
      await Promise.all([proxy.close(), https.close()]);
      for (const path of [workspace, davRoot, dirname(caFile)]) rmSync(path, { recursive: true, force: true });
    },
  };
}

/** Calls `<id>__<tool>` and returns its result, failing with the error text otherwise. */
export async function ok(o: Orchestrator, tool: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const outcome = await o.call(`${ID}__${tool}`, args);
  if (!outcome.ok) throw new Error(`${tool} failed: ${outcome.error}`);
  return outcome.result;
}

/** Calls a tool that must fail and returns its error text. */
export async function fails(o: Orchestrator, tool: string, args: Record<string, unknown>): Promise<string> {
  const outcome = await o.call(`${ID}__${tool}`, args);
  if (outcome.ok) throw new Error(`${tool} succeeded unexpectedly: ${JSON.stringify(outcome.result)}`);
  return outcome.capabilityError ?? outcome.error;
}
