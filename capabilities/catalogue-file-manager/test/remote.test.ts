// The WebDAV tools against a real WebDAV server (webdav-server, files on disk) with a certificate from
// the test CA, reached only through the egress proxy double, as Selu's containers reach the internet.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Orchestrator } from "@selu-catalogue/testkit/orchestrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAV_HOST, DAV_SETTINGS, fails, ok, startWorld, type World } from "./harness.js";

let world: World;
let o: Orchestrator;
const call = (tool: string, args: Record<string, unknown>) => ok(o, tool, args);

beforeAll(async () => {
  world = await startWorld();
  mkdirSync(join(world.davRoot, "Reports"));
  writeFileSync(join(world.davRoot, "Reports", "q1 & q2.csv"), "quarter,revenue\nq1,10\n");
  writeFileSync(join(world.davRoot, "hello.txt"), "hello from the store");
  o = await world.orchestrator(DAV_SETTINGS);
}, 30_000);
afterAll(() => world?.close());

describe("remote store (WebDAV)", () => {
  it("lists a folder through the egress proxy, with names that need escaping", async () => {
    const root = await call("remote_list", {});
    expect(root.entries).toMatchObject([
      { name: "Reports", type: "directory" },
      { name: "hello.txt", type: "file", size: 20 },
    ]);
    const reports = await call("remote_list", { path: "Reports" });
    expect(reports.entries).toMatchObject([{ name: "q1 & q2.csv", type: "file", size: 22 }]);
    expect(world.proxy.attempts.some((a) => a.host === DAV_HOST && a.decision === "mapped")).toBe(true);
  });

  it("downloads into the workspace and as an artifact", async () => {
    expect(await call("remote_download", { remote_path: "Reports/q1 & q2.csv", destination: "data/q.csv" })).toMatchObject({ path: "data/q.csv", size_bytes: 22 });
    expect(readFileSync(join(world.workspace, "data", "q.csv"), "utf8")).toBe("quarter,revenue\nq1,10\n");
    const { artifact } = await call("remote_download", { remote_path: "hello.txt" });
    const back = o.vault.take("user-1", artifact.artifact_id);
    expect("bytes" in back && back.bytes.toString()).toBe("hello from the store");
  });

  it("uploads from the workspace and from an attachment, refusing to replace without overwrite", async () => {
    writeFileSync(join(world.workspace, "up.txt"), "from the workspace");
    expect(await call("remote_upload", { remote_path: "Reports/up.txt", source: "up.txt" })).toEqual({ remote_path: "Reports/up.txt", size_bytes: 18, created: true });
    expect(readFileSync(join(world.davRoot, "Reports", "up.txt"), "utf8")).toBe("from the workspace");
    expect(await fails(o, "remote_upload", { remote_path: "Reports/up.txt", source: "up.txt" })).toMatch(/already exists on the remote store; pass overwrite: true/);
    const { artifactId } = o.vault.store("user-1", "att.txt", "text/plain", Buffer.from("from an attachment"));
    await call("remote_upload", { remote_path: "Reports/up.txt", attachments: [{ artifact_id: artifactId }], overwrite: true });
    expect(readFileSync(join(world.davRoot, "Reports", "up.txt"), "utf8")).toBe("from an attachment");
  });

  it("keeps remote paths inside the configured folder", async () => {
    expect(await fails(o, "remote_download", { remote_path: "../secret.txt" })).toMatch(/remote_path: .* contains "\.\."/);
    expect(await fails(o, "remote_list", { path: "%2e%2e/" })).toMatch(/does not exist on the remote store/);
    expect(existsSync(join(world.davRoot, "..", "secret.txt"))).toBe(false);
  });

  it("names the setting to fix when the login is refused", async () => {
    const wrong = await world.orchestrator({ ...DAV_SETTINGS, WEBDAV_PASSWORD: "wrong" });
    expect(await fails(wrong, "remote_list", {})).toBe("the remote store refused the login (HTTP 401); an administrator should check WEBDAV_USERNAME and WEBDAV_PASSWORD");
  });

  it("says which host the proxy refused when the store is not reachable", async () => {
    const other = await world.orchestrator({ ...DAV_SETTINGS, WEBDAV_URL: "https://unmapped.example.net/dav/" });
    expect(await fails(other, "remote_list", {})).toMatch(/unmapped\.example\.net/);
  });
});
