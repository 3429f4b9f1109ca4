// Issue 10, item 4: DownloadOutputArtifact streams whose client never reads. Each used to hold about
// 0.4 MB with no bound on their number: 300 on one connection killed a capability in under a second,
// and memory stayed taken after they were cancelled. In a real process with the container's heap flag.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { credentials } from "@grpc/grpc-js";
import { CapabilityClient } from "@selu-catalogue/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./fixtures/client.ts";
import { rawDownload, rawSession } from "./fixtures/raw-download.ts";

interface Memory {
  rss: number;
  arrayBuffers: number;
  heapUsed: number;
  downloadBuffer: number;
}

const MiB = 1024 * 1024;
let child: ChildProcess;
let client: CapabilityClient;
let address: string;

function memory(gc = false): Promise<Memory> {
  return new Promise((resolve) => {
    child.once("message", resolve as (m: unknown) => void);
    child.send({ gc });
  });
}

beforeAll(async () => {
  child = fork(fileURLToPath(new URL("fixtures/transfer-server.ts", import.meta.url)), {
    execArgv: [...process.execArgv, "--max-old-space-size=48", "--expose-gc"],
    env: { ...process.env, TRANSFER_IDLE_MS: "60000" },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once("message", resolve as (m: unknown) => void));
  address = `127.0.0.1:${port}`;
  client = new CapabilityClient(address, credentials.createInsecure());
});

afterAll(() => {
  client.close();
  child.kill("SIGKILL");
});

describe("downloads whose client never reads", () => {
  it("survives 300 on one connection with memory bounded, and gives it back after they are cancelled", async () => {
    const { artifact } = await call(client, "make_file", { size: 5 * MiB });
    const before = await memory(true);
    const session = rawSession(address);
    const streams = Array.from({ length: 300 }, () => rawDownload(session, artifact.capability_artifact_id));
    await new Promise((r) => setTimeout(r, 2_000));
    const loaded = await memory();
    expect(child.exitCode).toBeNull();
    // What waits to leave the process is bounded across all downloads (8 MiB by default).
    expect(loaded.downloadBuffer).toBeLessThanOrEqual(8 * MiB + 300 * 1024);
    expect(loaded.rss - before.rss).toBeLessThan(48 * MiB);
    // The capability still answers calls meanwhile, on another connection.
    const other = new CapabilityClient(address, credentials.createInsecure(), { "grpc.use_local_subchannel_pool": 1 });
    expect((await call(other, "make_file", { size: 10 })).artifact.filename).toBe("f.bin");
    other.close();

    for (const { stream } of streams) stream.close(8);
    // Back while the connection stays open: cancelled streams take nothing new on their way out.
    let after = await memory(true);
    for (const started = Date.now(); after.arrayBuffers - before.arrayBuffers >= 4 * MiB && Date.now() - started < 10_000; ) {
      await new Promise((r) => setTimeout(r, 250));
      after = await memory(true);
    }
    expect(after.downloadBuffer).toBe(0);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(4 * MiB);
    session.close();
  }, 60_000);
});
