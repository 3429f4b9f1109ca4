import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ArtifactChunk, InvokeRequest, UploadInputArtifactResponse } from "../src/index.ts";
import { SERVED_PROTO_FILES } from "../src/standard.ts";

const pkg = fileURLToPath(new URL("..", import.meta.url));
const root = join(pkg, "..", "..");
const buf = join(pkg, "node_modules", ".bin", "buf");
const work = mkdtempSync(join(tmpdir(), "proto-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("generated code", () => {
  it("is what the generator makes from the protos today (not stale, not edited by hand)", () => {
    const out = join(work, "gen");
    execFileSync(process.execPath, [join(pkg, "scripts/generate.mjs"), out], { cwd: pkg, stdio: "pipe" });
    const files = (dir: string) =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => relative(dir, join(e.parentPath, e.name)))
        .sort();
    const fresh = files(join(out, "src/gen"));
    expect(files(join(pkg, "src/gen"))).toEqual(fresh);
    for (const file of fresh) {
      const same = readFileSync(join(out, "src/gen", file), "utf8") === readFileSync(join(pkg, "src/gen", file), "utf8");
      expect(same, `src/gen/${file} is stale: run \`pnpm --filter @selu-catalogue/proto generate\``).toBe(true);
    }
  });

  it("describes the served services in descriptors reflection can hand out as they are", () => {
    const byName = new Map(SERVED_PROTO_FILES.map((f) => [f.name, f]));
    const capability = fromBinary(FileDescriptorProtoSchema, Buffer.from(byName.get("capability/v1/capability.proto")!.descriptor, "base64"));
    expect(capability.package).toBe("selu.capability.v1");
    expect(capability.service.map((s) => s.method.map((m) => m.name))).toEqual([["Invoke", "StreamInvoke", "Healthcheck", "UploadInputArtifact", "DownloadOutputArtifact"]]);
    expect(capability.sourceCodeInfo).toBeUndefined();
    const health = byName.get("grpc/health/v1/health.proto")!;
    expect(health.services).toEqual(["grpc.health.v1.Health"]);
    expect(health.symbols).toEqual(expect.arrayContaining(["grpc.health.v1.Health.Check", "grpc.health.v1.HealthCheckResponse.ServingStatus"]));
    expect(fromBinary(FileDescriptorProtoSchema, Buffer.from(health.descriptor, "base64")).name).toBe(health.name);
  });

  it("puts Selu's field numbers on the wire", () => {
    // tag = field number << 3 | wire type (2 = length-delimited, 0 = varint)
    const req = InvokeRequest.encode({ toolName: "t", argsJson: Buffer.from("{}"), configJson: Buffer.alloc(0), sessionId: "", capabilityId: "", threadId: "z" }).finish();
    expect([...req.subarray(0, 1)]).toEqual([(1 << 3) | 2]);
    expect(req.includes((6 << 3) | 2)).toBe(true);
    const up = UploadInputArtifactResponse.encode({ capabilityArtifactId: "", sizeBytes: 5, error: "" }).finish();
    expect([...up]).toEqual([(2 << 3) | 0, 5]);
    const chunk = ArtifactChunk.encode({ data: Buffer.alloc(0), filename: "", mimeType: "", done: true, error: "" }).finish();
    expect([...chunk]).toEqual([(4 << 3) | 0, 1]);
  });
});

describe("breaking-change check", () => {
  const lint = (protoDir: string) => spawnSync(buf, ["breaking", protoDir, "--against", join(root, "proto/baseline/selu.capability.v1.binpb")], { encoding: "utf8" });

  it("passes for the contract as it is", () => {
    const r = lint(join(root, "proto"));
    expect(r.stderr + r.stdout).toBe("");
    expect(r.status).toBe(0);
  });

  it("fails when a field is renumbered", () => {
    const dir = join(work, "renumbered");
    cpSync(join(root, "proto/capability"), join(dir, "capability"), { recursive: true });
    const file = join(dir, "capability/v1/capability.proto");
    writeFileSync(file, readFileSync(file, "utf8").replace("string thread_id = 6;", "string thread_id = 7;"));
    const r = lint(dir);
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/thread_id/);
  });

  it("fails when the package is renamed", () => {
    const dir = join(work, "renamed");
    cpSync(join(root, "proto/capability"), join(dir, "capability"), { recursive: true });
    const file = join(dir, "capability/v1/capability.proto");
    writeFileSync(file, readFileSync(file, "utf8").replace("package selu.capability.v1;", "package selu.capability;"));
    expect(lint(dir).status).not.toBe(0);
  });

  it("keeps the baseline beside the contract", () => {
    expect(readdirSync(join(root, "proto/baseline"))).toContain("selu.capability.v1.binpb");
  });
});
